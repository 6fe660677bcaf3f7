import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks secret prefix. */
const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The HMAC key of a secret: the base64-decoded part after `whsec_`. */
function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('not a whsec_ secret');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/**
 * The `webhook-signature` header (Standard Webhooks): `v1,` + base64 HMAC-SHA256 of
 * `${id}.${timestamp}.${body}` for each secret, space-separated (current secret first; the
 * previous one during a rotation's overlap).
 */
export function signWebhook(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets
    .map((s) => `v1,${createHmac('sha256', secretKey(s)).update(content).digest('base64')}`)
    .join(' ');
}
