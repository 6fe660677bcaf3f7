import { recordTimestamp } from '@app/core';
import type { Limits } from '@app/plans';
import type { AccountEntity } from '@app/database';
import type { AccountListRow } from '@app/accounts';
import type { AccountUsage } from '../usage/usage.service';

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

/** An account in the operators' list: the record and its people's e-mail addresses. */
export function accountListView(a: AccountListRow) {
  return {
    id: a.id,
    name: a.name,
    plan: a.plan,
    credits: a.credits,
    created_at: recordTimestamp(a.createdAt),
    emails: a.emails,
  };
}

/** Keys are shown the same way by the admin API and the account area. */
export { keyView, newKeyView } from '@app/accounts';
