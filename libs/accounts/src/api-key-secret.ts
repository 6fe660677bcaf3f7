import { createHash, randomBytes } from 'node:crypto';

/** Every key starts with this, so leaked keys are recognizable (and scannable). */
const KEY_PREFIX = 'seo_live_';
const PREFIX_SHOWN = KEY_PREFIX.length + 4;
const KEY_PATTERN = /^seo_live_[A-Za-z0-9_-]{43}$/;

interface NewSecret {
  key: string;
  prefix: string;
  hash: string;
}

/** A new key: 256 random bits, base64url. Only its SHA-256 is stored. */
export function generateSecret(): NewSecret {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, PREFIX_SHOWN), hash: hashSecret(key) };
}

/**
 * SHA-256 is the right hash for 256-bit random secrets: brute force is infeasible, and a
 * fast hash keeps the lookup cheap (a slow password hash protects low-entropy secrets).
 */
export function hashSecret(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function looksLikeKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}
