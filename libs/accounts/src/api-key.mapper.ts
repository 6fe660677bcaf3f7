import { recordTimestamp } from '@app/core';
import type { ApiKeyEntity } from '@app/database';
import type { NewApiKey } from './api-keys.service';

/**
 * An API key as the admin API and the account area show it: never the secret or its hash.
 * (The account area leaves out `account_id`: see ownKeyView.)
 */
export function keyView(k: ApiKeyEntity) {
  return {
    id: k.id,
    account_id: k.accountId,
    label: k.label,
    prefix: k.prefix,
    created_at: recordTimestamp(k.createdAt),
    last_used_at: recordTimestamp(k.lastUsedAt),
    revoked_at: recordTimestamp(k.revokedAt),
  };
}

/** A key of the signed-in account: `{id, label, prefix, created_at, last_used_at, revoked_at}`. */
export function ownKeyView(k: ApiKeyEntity) {
  const { id, label, prefix, created_at, last_used_at, revoked_at } = keyView(k);
  return { id, label, prefix, created_at, last_used_at, revoked_at };
}

/** A key just created: the only answer that carries its secret. */
export function newKeyView(k: NewApiKey) {
  const { id, label, prefix, created_at } = keyView(k);
  return { id, label, key: k.key, prefix, created_at };
}
