import { crc32 as zlibCrc32 } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import {
  KEY_LENGTH,
  LEGACY_KEY_LENGTH,
  crc32,
  generateSecret,
  hashSecret,
  keyChecksum,
  keyFormat,
  looksLikeKey,
} from './api-key-secret';

/** The worked example of docs/api-keys.md. */
const EXAMPLE_BODY = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefg';

describe('API key secrets', () => {
  it('are high-entropy, recognizable, and stored only as a hash', () => {
    const a = generateSecret();
    const b = generateSecret();
    expect(a.key).not.toBe(b.key);
    expect(a.key).toMatch(/^seo_live_[0-9A-Za-z]{49}$/);
    expect(a.key).toHaveLength(KEY_LENGTH);
    expect(a.prefix).toBe(a.key.slice(0, 13));
    expect(a.hash).toBe(hashSecret(a.key));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).not.toContain(a.key.slice(9));
    expect(looksLikeKey(a.key)).toBe(true);
    expect(keyFormat(a.key)).toBe('current');
    expect(looksLikeKey('seo_live_short')).toBe(false);
  });

  it('end with the base62 CRC32 of their body', () => {
    for (let i = 0; i < 200; i++) {
      const { key } = generateSecret();
      const body = key.slice(9, 52);
      expect(key.slice(52)).toBe(keyChecksum(body));
      expect(parseBase62(key.slice(52))).toBe(zlibCrc32(body));
    }
  });

  it('computes CRC32 as zlib does, and the documented example', () => {
    for (const s of ['', 'a', '123456789', EXAMPLE_BODY, randomBytes(40).toString('base64url')]) {
      expect(crc32(s)).toBe(zlibCrc32(s));
    }
    expect(crc32('123456789')).toBe(0xcbf43926); // the CRC-32 check value
    expect(crc32(EXAMPLE_BODY)).toBe(2_860_937_052);
    expect(keyChecksum(EXAMPLE_BODY)).toBe('37cCQ0');
    expect(keyFormat(`seo_live_${EXAMPLE_BODY}37cCQ0`)).toBe('current');
  });

  it('refuses a key with any one character changed (checksum)', () => {
    const { key } = generateSecret();
    let refused = 0;
    let tried = 0;
    for (let i = 9; i < key.length; i++) {
      for (const c of ['0', 'Z', 'z', 'q']) {
        if (key[i] === c) continue;
        tried++;
        if (!looksLikeKey(key.slice(0, i) + c + key.slice(i + 1))) refused++;
      }
    }
    expect(refused).toBe(tried);
    // Swapped neighbours (a common typo) too, where they differ.
    const swapped = key.slice(0, 20) + key[21] + key[20] + key.slice(22);
    if (key[20] !== key[21]) expect(looksLikeKey(swapped)).toBe(false);
  });

  it('refuses random values of the current shape (about 1 in 5.7e10 would pass)', () => {
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    let passed = 0;
    for (let i = 0; i < 2000; i++) {
      const bytes = randomBytes(49);
      const value = 'seo_live_' + Array.from(bytes, (b) => alphabet[b % 62]).join('');
      if (looksLikeKey(value)) passed++;
    }
    expect(passed).toBe(0);
  });

  it('still recognizes legacy keys (52 characters, base64url, no checksum)', () => {
    const legacy = `seo_live_${randomBytes(32).toString('base64url')}`;
    expect(legacy).toHaveLength(LEGACY_KEY_LENGTH);
    expect(keyFormat(legacy)).toBe('legacy');
    expect(keyFormat(`seo_live_${'-'.repeat(43)}`)).toBe('legacy');
  });

  it('refuses hostile input without throwing', () => {
    const { key } = generateSecret();
    const hostile = [
      '',
      'seo_live_',
      key.toUpperCase(),
      key.replace('seo_live_', 'SEO_LIVE_'),
      key.replace('seo_live_', 'seo_test_'),
      key + ' ',
      ' ' + key.slice(1),
      key.slice(0, -1) + '\u0000',
      key.slice(0, -1) + 'é',
      key.slice(0, -2) + '\u{1F600}', // one astral character: two UTF-16 units
      key.slice(0, 30) + '_' + key.slice(31),
      key.slice(0, 30) + '-' + key.slice(31),
      key.slice(0, -1),
      key + 'a',
      `seo_live_${'A'.repeat(49)}`,
      `seo_live_${'0'.repeat(49)}`,
      `seo_live_${randomBytes(32).toString('base64url').slice(0, 42)}=`,
      `seo_live_${randomBytes(32).toString('base64url').slice(0, 42)}\n`,
      'x'.repeat(100_000),
      'seo_live_' + 'a'.repeat(1_000_000),
    ];
    for (const value of hostile) {
      expect(() => keyFormat(value)).not.toThrow();
      expect(looksLikeKey(value)).toBe(false);
    }
  });
});

function parseBase62(s: string): number {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  return [...s].reduce((n, c) => n * 62 + alphabet.indexOf(c), 0);
}
