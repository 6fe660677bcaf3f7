import { cleanJson, cleanText, int, num, safeJson } from './sanitize';

describe('sanitizing crawled text for PostgreSQL', () => {
  it('replaces NUL characters and unpaired surrogates, keeps valid pairs', () => {
    expect(cleanText('a\u0000b')).toBe('a\uFFFDb');
    expect(cleanText('x\uD800y')).toBe('x\uFFFDy');
    expect(cleanText('x\uDC00y')).toBe('x\uFFFDy');
    expect(cleanText('emoji 😀')).toBe('emoji 😀');
  });

  it('cuts very long values', () => {
    expect(cleanText('a'.repeat(10_000)).length).toBe(4096);
  });

  it('cleans every string inside jsonb parameters', () => {
    expect(JSON.parse(safeJson({ a: ['x\u0000'], b: { c: '\uD800' } }))).toEqual({
      a: ['x\uFFFD'],
      b: { c: '\uFFFD' },
    });
    expect(cleanJson({ a: ['x\u0000'], n: 1 })).toEqual({ a: ['x\uFFFD'], n: 1 });
  });

  it('turns numbers into valid integer / double column values', () => {
    expect(int(12.6)).toBe(13);
    expect(int(NaN)).toBe(0);
    expect(int(1e20)).toBe(2_147_483_647);
    expect(num(Infinity)).toBe(0);
    expect(num(87.5)).toBe(87.5);
  });
});
