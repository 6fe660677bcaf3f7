import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** The prefix of a sealed value: `enc:v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url parts). */
const SEALED_PREFIX = 'enc:v1:';
const SEALED = /^enc:v1:([0-9a-f]{8}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{22}):([A-Za-z0-9_-]+)$/;

/** A sealed value names a key that is not configured, or does not decrypt with it. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/**
 * Parses an encryption key given in configuration: 32 bytes as base64 (44 characters) or as
 * hex (64 characters); null when it is neither (the caller reports the variable).
 */
export function parseEncryptionKey(value: string): Buffer | null {
  const v = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(v)) return Buffer.from(v, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(v)) {
    const key = Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return key.length === 32 ? key : null;
  }
  return null;
}

/** The id of a key as stored beside each value: the first 8 hex digits of its SHA-256. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * Encryption at rest of small secrets (webhook signing secrets) with AES-256-GCM from
 * node:crypto: a random 12-byte IV per value, the 16-byte tag, and the key's id in the value
 * (`enc:v1:<kid>:...`), so several keys can be configured at once and values re-encrypted
 * under a new one (`npm run secrets:rotate`). `context` is bound as additional data (e.g.
 * the owning row), so a sealed value copied to another row does not open.
 *
 * Without a current key, `seal` keeps the value as it is (development); `open` passes a value
 * that is not sealed through unchanged (rows written before encryption existed).
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  readonly currentKeyId: string | null;

  constructor(current: Buffer | null, old: readonly Buffer[] = []) {
    for (const k of [...old, ...(current ? [current] : [])]) this.keys.set(keyId(k), k);
    this.currentKeyId = current ? keyId(current) : null;
  }

  /** Whether new values are sealed (a current key is configured). */
  get enabled(): boolean {
    return this.currentKeyId !== null;
  }

  /** Whether `kid` is one of the configured keys. */
  knows(kid: string): boolean {
    return this.keys.has(kid);
  }

  seal(plain: string, context: string): string {
    if (!this.currentKeyId) return plain;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return `${SEALED_PREFIX}${this.currentKeyId}:${parts.join(':')}`;
  }

  open(stored: string, context: string): string {
    if (!stored.startsWith(SEALED_PREFIX)) return stored;
    const m = SEALED.exec(stored);
    if (!m) throw new SecretBoxError('A sealed secret is malformed.');
    const key = this.keys.get(m[1]);
    if (!key) {
      throw new SecretBoxError(
        `A secret is sealed with key ${m[1]}, which is not configured (SECRETS_ENCRYPTION_KEY or SECRETS_ENCRYPTION_KEYS_OLD).`,
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(m[2], 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(m[3], 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(m[4], 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretBoxError(
        `A secret sealed with key ${m[1]} does not decrypt (altered or moved).`,
      );
    }
  }

  /** The key id of a sealed value, or null for a value stored as it is. */
  static keyIdOf(stored: string): string | null {
    return SEALED.exec(stored)?.[1] ?? null;
  }
}
