import { bodyBoundViolation } from './hostile-input';

describe('bodyBoundViolation (depth and size bounds on parsed bodies)', () => {
  const nest = (depth: number, wrap: (v: unknown) => unknown) => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = wrap(v);
    return v;
  };

  it('accepts scalars, absent bodies and bodies within the bounds', () => {
    expect(bodyBoundViolation(undefined)).toBeNull();
    expect(bodyBoundViolation('x')).toBeNull();
    expect(bodyBoundViolation({ a: [1, { b: 2 }] })).toBeNull();
    expect(bodyBoundViolation(nest(32, (v) => ({ a: v })))).toBeNull();
    expect(bodyBoundViolation(nest(32, (v) => [v]))).toBeNull();
  });

  it('refuses nesting deeper than the bound, objects or arrays, without recursion', () => {
    expect(bodyBoundViolation(nest(33, (v) => ({ a: v })))).toMatch(/deeper than 32/);
    expect(bodyBoundViolation(nest(33, (v) => [v]))).toMatch(/deeper than 32/);
    expect(bodyBoundViolation(nest(100_000, (v) => [v]))).toMatch(/deeper than 32/);
  });

  it('refuses bodies holding too many values', () => {
    expect(bodyBoundViolation({ a: new Array(20).fill(0) }, 32, 10)).toMatch(/more than 10/);
  });
});
