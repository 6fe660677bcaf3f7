import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password hashing with Node's scrypt at OWASP's parameters (N = 2^17, r = 8, p = 1, a
 * 16-byte random salt, a 64-byte key: about 128 MiB and 0.3 s per hash). The hash runs on
 * libuv's thread pool (the callback form), so it never blocks the event loop. Stored
 * self-describing, `scrypt$17$8$1$<salt base64>$<key base64>`, so the cost can be raised
 * later without invalidating stored hashes. A password never reaches a log or an error.
 */
const SCRYPT_LOG_N = 17;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 64;
/** Stored hashes with a cost outside this range are refused (a stored value cannot make us burn memory). */
const MIN_LOG_N = 10;
const MAX_LOG_N = 20;

/** Password length in characters (Unicode code points, nothing trimmed). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** Length of a password in characters (code points), as the length rule counts it. */
export function passwordLength(password: string): number {
  let n = 0;
  for (const _ of password) n++;
  return n;
}

/** True when the password meets the length rule (12 to 256 characters). */
export function isAcceptablePassword(password: unknown): password is string {
  if (typeof password !== 'string') return false;
  const n = passwordLength(password);
  return n >= PASSWORD_MIN_LENGTH && n <= PASSWORD_MAX_LENGTH;
}

function derive(password: string, salt: Buffer, logN: number, r: number, p: number) {
  const N = 2 ** logN;
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_BYTES,
      // scrypt needs 128·N·r bytes; leave headroom over Node's 32 MiB default.
      { N, r, p, maxmem: 256 * N * r },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

/** A new self-describing hash of `password` with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, SCRYPT_LOG_N, SCRYPT_R, SCRYPT_P);
  return [
    'scrypt',
    SCRYPT_LOG_N,
    SCRYPT_R,
    SCRYPT_P,
    salt.toString('base64'),
    key.toString('base64'),
  ].join('$');
}

/**
 * Whether `password` matches a stored hash, compared in constant time. A malformed stored
 * hash (or one with parameters out of range) never matches.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.logN, parsed.r, parsed.p);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** Whether a stored hash was made with weaker parameters than today's (rehash on sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return (
    !parsed || parsed.logN < SCRYPT_LOG_N || parsed.r < SCRYPT_R || parsed.key.length < KEY_BYTES
  );
}

const B64 = /^[A-Za-z0-9+/]+={0,2}$/;

function parse(stored: string) {
  if (typeof stored !== 'string') return null;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [logN, r, p] = parts.slice(1, 4).map((x) => (/^\d{1,2}$/.test(x) ? Number(x) : NaN));
  if (!(logN >= MIN_LOG_N && logN <= MAX_LOG_N) || !(r >= 1 && r <= 16) || !(p >= 1 && p <= 4)) {
    return null;
  }
  if (!B64.test(parts[4]) || !B64.test(parts[5])) return null;
  const salt = Buffer.from(parts[4], 'base64');
  const key = Buffer.from(parts[5], 'base64');
  if (salt.length < 8 || key.length < 32 || key.length > 128) return null;
  return { logN, r, p, salt, key };
}
