import { RawJson, stringifyJson } from './raw-json';

describe('RawJson and stringifyJson', () => {
  it('places pre-rendered JSON text as it is, where the member stands', () => {
    const value = {
      success: true,
      data: { keywords: RawJson.array(['{"a":1}', '{"b":"x\\"y"}']), count: 2 },
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
    const text = stringifyJson([new RawJson('1'), { x: RawJson.array([]), y: new RawJson('"s"') }]);
    expect(text).toBe('[1,{"x":[],"y":"s"}]');
  });

  it('leaves values that look like the placeholder alone', () => {
    const lookalike = '\u0000raw-json:00000000000000000000000000000000:0';
    const text = stringifyJson({ a: lookalike, b: new RawJson('true') });
    expect(JSON.parse(text)).toEqual({ a: lookalike, b: true });
  });

  it('a plain JSON.stringify still gives the right value (parsed, the slow way)', () => {
    expect(JSON.stringify({ k: RawJson.array(['{"z":null}']) })).toBe('{"k":[{"z":null}]}');
  });

  it('without any RawJson it is JSON.stringify', () => {
    const v = { a: [1, 'two', null, { b: false }], c: 'é\u2028"' };
    expect(stringifyJson(v)).toBe(JSON.stringify(v));
  });
});
