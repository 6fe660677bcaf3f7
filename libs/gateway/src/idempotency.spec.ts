import { ApiError } from '@app/core';
import { canonicalJson, idempotencyKeyOf, requestHash } from './idempotency';

const withHeaders = (...pairs: string[]) => ({ rawHeaders: pairs });

describe('idempotencyKeyOf', () => {
  it('no header: undefined (nothing changes)', () => {
    expect(idempotencyKeyOf(withHeaders('Content-Type', 'application/json'))).toBeUndefined();
  });

  it('any spelling of the name; 1 and 255 printable ASCII characters are keys', () => {
    expect(idempotencyKeyOf(withHeaders('idempotency-KEY', 'a'))).toBe('a');
    const longest = ' !~'.padEnd(255, 'z');
    expect(idempotencyKeyOf(withHeaders('Idempotency-Key', longest))).toBe(longest);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a tab', 'a\tb'],
    ['a NUL', 'a\u0000b'],
    ['DEL', 'a\u007fb'],
    ['Latin-1 é', 'caf\u00e9'],
    ['non-Latin', 'ключ'],
    ['an emoji', 'k\u{1f511}'],
    ['a newline', 'a\nb'],
  ])('%s → 422 VALIDATION_ERROR on Idempotency-Key', (_name, value) => {
    let error: unknown;
    try {
      idempotencyKeyOf(withHeaders('Idempotency-Key', value));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
    expect((error as ApiError).details).toEqual([
      { field: 'Idempotency-Key', message: (error as ApiError).message },
    ]);
  });

  it('the header twice → 422 (Node would have joined the two into "a, b")', () => {
    expect(() =>
      idempotencyKeyOf(withHeaders('Idempotency-Key', 'a', 'idempotency-key', 'b')),
    ).toThrow(/once/);
  });
});

describe('canonicalJson and requestHash: bodies compared as parsed JSON', () => {
  it('member order does not matter; array order, types and values do', () => {
    expect(canonicalJson({ b: 1, a: [2, { d: null, c: 'x' }] })).toBe(
      '{"a":[2,{"c":"x","d":null}],"b":1}',
    );
    const hash = (body: unknown) => requestHash({ params: {}, query: {}, body });
    expect(hash({ a: 1, b: 2 })).toBe(hash({ b: 2, a: 1 }));
    expect(hash({ a: [1, 2] })).not.toBe(hash({ a: [2, 1] }));
    expect(hash({ a: 1 })).not.toBe(hash({ a: '1' }));
    expect(hash({ a: 1 })).not.toBe(hash({ a: 1, b: null }));
    expect(hash(undefined)).toBe(hash(null));
  });

  it('a member named __proto__ stays a member (no prototype trick)', () => {
    const parsed = JSON.parse('{"__proto__":{"x":1},"a":1}') as unknown;
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"x":1},"a":1}');
    const hash = (body: unknown) => requestHash({ params: {}, query: {}, body });
    expect(hash(parsed)).not.toBe(hash({ a: 1 }));
  });

  it('path parameters and query count; the api_key credential does not', () => {
    const h = (params: Record<string, string>, query: Record<string, string>) =>
      requestHash({ params, query, body: {} });
    expect(h({ id: '1' }, {})).not.toBe(h({ id: '2' }, {}));
    expect(h({}, { a: '1' })).not.toBe(h({}, { a: '2' }));
    expect(h({}, { api_key: 'seo_live_one' })).toBe(h({}, { api_key: 'seo_live_two' }));
  });
});
