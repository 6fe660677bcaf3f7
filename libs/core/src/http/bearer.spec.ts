import { bearerToken } from './bearer';

describe('bearerToken', () => {
  it('reads the token of a Bearer header', () => {
    expect(bearerToken('Bearer abc.DEF-123')).toBe('abc.DEF-123');
  });

  it.each(['bearer abc', 'BEARER abc', 'BeArEr abc'])('the scheme in any case: %j', (h) => {
    expect(bearerToken(h)).toBe('abc');
  });

  it.each(['Bearer   abc', 'Bearer\tabc', 'Bearer abc  ', 'Bearer \t abc \t'])(
    'blanks between scheme and token, and after it: %j',
    (h) => {
      expect(bearerToken(h)).toBe('abc');
    },
  );

  it.each([undefined, null, ''])('no header (%j): null', (h) => {
    expect(bearerToken(h)).toBeNull();
  });

  it.each(['Bearer', 'Bearer ', 'Bearer \t ', 'Bearer\t'])('no token (%j): null', (h) => {
    expect(bearerToken(h)).toBeNull();
  });

  it.each(['Basic YWJjOmRlZg==', 'Token abc', 'Bearerabc', 'abc', 'Digest Bearer abc'])(
    'another scheme or none (%j): null',
    (h) => {
      expect(bearerToken(h)).toBeNull();
    },
  );

  it.each([' Bearer abc', 'Bearer abc def', 'Bearer abc\n', 'Bearer\nabc'])(
    'leading blanks, two words, line breaks (%j): null',
    (h) => {
      expect(bearerToken(h)).toBeNull();
    },
  );
});
