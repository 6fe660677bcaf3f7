import { z } from 'zod';
import { parseEncryptionKey } from '../../crypto/secret-box';

const KEY_FORMAT =
  'must be 32 random bytes, as base64 (44 characters) or hex (64 characters); e.g. `openssl rand -base64 32`';

const currentKey = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return null;
    const key = parseEncryptionKey(v);
    if (!key) {
      ctx.addIssue({ code: 'custom', message: KEY_FORMAT });
      return z.NEVER;
    }
    return key;
  });

const oldKeys = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const keys: Buffer[] = [];
    for (const part of (v ?? '').split(',').map((p) => p.trim())) {
      if (part === '') continue;
      const key = parseEncryptionKey(part);
      if (!key) {
        ctx.addIssue({ code: 'custom', message: `each key: ${KEY_FORMAT}` });
        return z.NEVER;
      }
      keys.push(key);
    }
    return keys;
  });

/** Secrets at rest (docs/webhooks.md, "Secrets at rest"). */
export const secretsEnv = z.object({
  SECRETS_ENCRYPTION_KEY: currentKey,
  SECRETS_ENCRYPTION_KEYS_OLD: oldKeys,
});

export interface SecretsConfig {
  /** Keys of the secrets at rest (never logged). */
  secretsEncryption: {
    /** SECRETS_ENCRYPTION_KEY: new values are sealed with it; null: stored as they are. */
    current: Buffer | null;
    /** SECRETS_ENCRYPTION_KEYS_OLD: still read (values sealed before a key rotation). */
    old: Buffer[];
  };
}

export function secretsConfig(e: z.infer<typeof secretsEnv>): SecretsConfig {
  return {
    secretsEncryption: { current: e.SECRETS_ENCRYPTION_KEY, old: e.SECRETS_ENCRYPTION_KEYS_OLD },
  };
}
