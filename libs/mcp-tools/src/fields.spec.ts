import { fieldsArg, pickFields, withoutFields } from './fields';

describe('fields: keep only named members of each row', () => {
  const result = {
    ok: true as const,
    status: 200,
    data: {
      total: 2,
      rows: [
        { a: 1, b: 2, c: 3 },
        { a: 4, c: 6 },
      ],
    },
    meta: { cached: false },
  };

  it('keeps the named members in order, skips absent ones, leaves other data and meta alone', () => {
    const out = pickFields(result, 'rows', ['c', 'a', 'zz']);
    expect(out).toEqual({
      ...result,
      data: {
        total: 2,
        rows: [
          { c: 3, a: 1 },
          { c: 6, a: 4 },
        ],
      },
    });
    expect(result.data.rows[0]).toEqual({ a: 1, b: 2, c: 3 });
  });

  it('without fields, on errors or without the list, returns the result unchanged', () => {
    expect(pickFields(result, 'rows', undefined)).toBe(result);
    expect(pickFields(result, 'other', ['a'])).toBe(result);
    const failure = { ok: false as const, status: 404, code: 'NOT_FOUND', message: 'x', meta: {} };
    expect(pickFields(failure, 'rows', ['a'])).toBe(failure);
  });

  it('the schema accepts member names only; fields is not sent to the API', () => {
    const schema = fieldsArg('rows', ['a']);
    expect(schema.safeParse(['key', 'clicks']).success).toBe(true);
    expect(schema.safeParse([]).success).toBe(false);
    expect(schema.safeParse(['a b']).success).toBe(false);
    expect(schema.safeParse(undefined).success).toBe(true);
    expect(withoutFields({ domain: 'x', fields: ['a'] })).toEqual({ domain: 'x' });
  });
});
