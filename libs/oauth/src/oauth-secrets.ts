import { createHash, randomBytes } from 'node:crypto';

/** A new opaque secret (authorization code, access or refresh token): 256 random bits. */
export function newOpaqueSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored of a secret: its SHA-256, hex (64 characters). */
export function hashOpaqueSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The shape of our secrets; anything else is not looked up at all. */
export function looksLikeOpaqueSecret(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}
