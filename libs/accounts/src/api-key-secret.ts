import { createHash, randomBytes } from 'node:crypto';

/**
 * API key formats (docs/api-keys.md, docs/decisions/0005-key-checksum.md).
 *
 * Issued now: `seo_live_` + 43 base62 characters (256 random bits) + 6 base62 characters of
 * checksum: CRC32 (IEEE, as zlib and PNG) of the 43-character body, as a base62 number padded
 * with `0` to 6 characters. 58 characters in all, alphabet `0-9A-Za-z` after the prefix. A
 * value of that length that fails the checksum is refused without any lookup.
 *
 * Legacy (issued before 0005): `seo_live_` + 43 base64url characters (52 in all), no
 * checksum; still looked up, so those keys keep working.
 */
export const KEY_PREFIX = 'seo_live_';
const PREFIX_SHOWN = KEY_PREFIX.length + 4;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
/** Length of a key in the current format (58). */
export const KEY_LENGTH = KEY_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH;
/** Length of a legacy key (52). */
export const LEGACY_KEY_LENGTH = KEY_PREFIX.length + 43;
const KEY_PATTERN = /^seo_live_[0-9A-Za-z]{49}$/;
const LEGACY_KEY_PATTERN = /^seo_live_[A-Za-z0-9_-]{43}$/;

interface NewSecret {
  key: string;
  prefix: string;
  hash: string;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC32 (IEEE 802.3, reflected, as zlib.crc32) of an ASCII string, unsigned. */
export function crc32(ascii: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < ascii.length; i++) {
    crc = CRC_TABLE[(crc ^ ascii.charCodeAt(i)) & 0xff] ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A non-negative integer in base62 (`0-9A-Za-z`), left-padded with `0` to `width`. */
function base62(value: bigint, width: number): string {
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(width, '0');
}

/** The 6-character checksum of a key body. */
export function keyChecksum(body: string): string {
  return base62(BigInt(crc32(body)), CHECKSUM_LENGTH);
}

/** A new key: 256 random bits in base62, then its checksum. Only its SHA-256 is stored. */
export function generateSecret(): NewSecret {
  // 62^43 > 2^256, so every 256-bit value fits the 43 characters.
  const body = base62(BigInt('0x' + randomBytes(32).toString('hex')), BODY_LENGTH);
  const key = KEY_PREFIX + body + keyChecksum(body);
  return { key, prefix: key.slice(0, PREFIX_SHOWN), hash: hashSecret(key) };
}

/**
 * SHA-256 is the right hash for 256-bit random secrets: brute force is infeasible, and a
 * fast hash keeps the lookup cheap (a slow password hash protects low-entropy secrets).
 */
export function hashSecret(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The format of a value: current (checksum holds), legacy, or none (refused unseen). */
export type KeyFormat = 'current' | 'legacy' | null;

export function keyFormat(value: string): KeyFormat {
  // The length first: a hostile value of any other length costs one comparison.
  if (value.length === KEY_LENGTH) {
    if (!KEY_PATTERN.test(value)) return null;
    const body = value.slice(KEY_PREFIX.length, KEY_PREFIX.length + BODY_LENGTH);
    return value.slice(KEY_PREFIX.length + BODY_LENGTH) === keyChecksum(body) ? 'current' : null;
  }
  if (value.length === LEGACY_KEY_LENGTH) return LEGACY_KEY_PATTERN.test(value) ? 'legacy' : null;
  return null;
}

/** True when the value may be a key: a current key whose checksum holds, or a legacy key. */
export function looksLikeKey(value: string): boolean {
  return keyFormat(value) !== null;
}
