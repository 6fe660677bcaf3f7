import { RawJson, serializeJson } from './raw-json';

const stringifyJson = (value: unknown) => serializeJson(value).toString('utf8');

describe('RawJson and serializeJson', () => {
  it('places pre-rendered JSON text as it is, where the member stands', () => {
    const value = {
      success: true,
      data: { keywords: new RawJson('[{"a":1},{"b":"x\\"y"}]'), count: 2 },
      meta: { note: 'after' },
    };
    const text = stringifyJson(value);
    expect(text).toBe(
      '{"success":true,"data":{"keywords":[{"a":1},{"b":"x\\"y"}],"count":2},"meta":{"note":"after"}}',
    );
    expect(JSON.parse(text)).toEqual({
      success: true,
      data: { keywords: [{ a: 1 }, { b: 'x"y' }], count: 2 },
      meta: { note: 'after' },
    });
  });

  it('several raw members, in arrays and objects, and an empty array', () => {
    const text = stringifyJson([new RawJson('1'), { x: new RawJson('[]'), y: new RawJson('"s"') }]);
    expect(text).toBe('[1,{"x":[],"y":"s"}]');
  });

  it('leaves values that look like the placeholder alone', () => {
    const lookalike = '\u0000raw-json:00000000000000000000000000000000:0';
    const text = stringifyJson({ a: lookalike, b: new RawJson('true') });
    expect(JSON.parse(text)).toEqual({ a: lookalike, b: true });
  });

  it('a plain JSON.stringify still gives the right value (parsed, the slow way)', () => {
    expect(JSON.stringify({ k: new RawJson('[{"z":null}]') })).toBe('{"k":[{"z":null}]}');
  });

  it('places UTF-8 bytes as they are, beside text and multi-byte characters', () => {
    const bytes = Buffer.from('[{"k":"café ✓"}]', 'utf8');
    const value = { é: new RawJson(bytes), then: new RawJson('"ü"'), last: '✓' };
    expect(
      serializeJson(value).equals(Buffer.from('{"é":[{"k":"café ✓"}],"then":"ü","last":"✓"}')),
    ).toBe(true);
    expect(JSON.stringify({ k: new RawJson(Buffer.from('{"z":1}')) })).toBe('{"k":{"z":1}}');
  });

  it('without any RawJson it is JSON.stringify', () => {
    const v = { a: [1, 'two', null, { b: false }], c: 'é\u2028"' };
    expect(stringifyJson(v)).toBe(JSON.stringify(v));
  });
});
