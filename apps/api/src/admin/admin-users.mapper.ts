import { recordTimestamp } from '@app/core';
import type { UserEntity } from '@app/database';

/** A user as the admin API lists it: never the password hash. */
export function userView(u: UserEntity) {
  return {
    id: u.id,
    email: u.email,
    account_id: u.accountId,
    created_at: recordTimestamp(u.createdAt),
    last_sign_in_at: recordTimestamp(u.lastSignInAt),
  };
}

/** A user just created. */
export function newUserView(u: UserEntity) {
  const { id, email, account_id, created_at } = userView(u);
  return { id, email, account_id, created_at };
}
