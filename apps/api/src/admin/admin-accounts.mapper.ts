import { recordTimestamp } from '@app/core';
import type { AccountUsage, NewApiKey } from '@app/accounts';
import type { Limits } from '@app/billing';
import type { AccountEntity, ApiKeyEntity } from '@app/database';

/**
 * An account as the admin API shows it; with `detail`, also its overrides, the limits in
 * force and (when given) its usage.
 */
export function accountView(a: AccountEntity, detail?: { limits: Limits; usage?: AccountUsage }) {
  const view = {
    id: a.id,
    name: a.name,
    plan: a.plan,
    credits: a.credits,
    created_at: recordTimestamp(a.createdAt),
  };
  return detail ? { ...view, overrides: a.overrides, ...detail } : view;
}

/** An API key as the admin API shows it: never the secret or its hash. */
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

/** A key just created: the only answer that carries its secret. */
export function newKeyView(k: NewApiKey) {
  const { id, label, prefix, created_at } = keyView(k);
  return { id, label, key: k.key, prefix, created_at };
}
