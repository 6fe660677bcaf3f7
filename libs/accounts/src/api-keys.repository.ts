import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { ApiKeyEntity, Sql, SqlScope } from '@app/database';
import type { LimitOverrides, PlanName } from '@app/plans';

/** What authentication needs of a key and its account (a join, not a table). */
interface KeyOwnerRow {
  key_id: number;
  label: string;
  revoked_at: Date | null;
  account_id: number;
  plan: PlanName;
  overrides: LimitOverrides;
}

/** Inserts a new, unused key (in `scope`'s transaction, if any). */
async function insertKey(
  scope: SqlScope,
  accountId: number,
  label: string,
  prefix: string,
  keyHash: string,
): Promise<ApiKeyEntity> {
  const keys = scope.repository(ApiKeyEntity);
  const key = keys.create({ accountId, label, prefix, keyHash, lastUsedAt: null, revokedAt: null });
  await keys.insert(key);
  return key;
}

/** The statements of API keys: TypeORM for plain CRUD, raw SQL on the authentication path. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly sql: Sql) {}

  private get keys() {
    return this.sql.repository(ApiKeyEntity);
  }

  create(accountId: number, label: string, prefix: string, keyHash: string): Promise<ApiKeyEntity> {
    return insertKey(this.sql, accountId, label, prefix, keyHash);
  }

  /**
   * A new key unless the account already has `maxActive` unrevoked keys: null then, and
   * undefined when the account does not exist. The account row is locked (`FOR NO KEY
   * UPDATE`) for the transaction, so concurrent creates for one account run one after the
   * other and each counts the keys committed before it: the cap is exact. Inserts elsewhere
   * (the foreign key's `FOR KEY SHARE`) are not blocked by that lock.
   */
  createWithinLimit(
    accountId: number,
    maxActive: number,
    label: string,
    prefix: string,
    keyHash: string,
  ): Promise<ApiKeyEntity | null | undefined> {
    return this.sql.transaction(async (tx) => {
      const account = await tx.one<{ id: number }>(
        `SELECT id FROM accounts WHERE id = $1 FOR NO KEY UPDATE`,
        [accountId],
      );
      if (!account) return undefined;
      const active = await tx.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL`,
        [accountId],
      );
      if ((active?.n ?? 0) >= maxActive) return null;
      return insertKey(tx, accountId, label, prefix, keyHash);
    });
  }

  /** The account's keys in id order (oldest first), or newest first. */
  listByAccount(accountId: number, newestFirst = false): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { accountId }, order: { id: newestFirst ? 'DESC' : 'ASC' } });
  }

  /**
   * Sets revoked_at unless already set (the first revocation time is kept); null when
   * unknown, or when `accountId` is given and the key belongs to another account.
   */
  async revoke(id: number, accountId?: number): Promise<ApiKeyEntity | null> {
    const owned = accountId === undefined ? { id } : { id, accountId };
    await this.keys.update({ ...owned, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    return this.keys.findOneBy(owned);
  }

  /** The key with this hash and its account, revoked or not. */
  findOwner(keyHash: string): Promise<KeyOwnerRow | undefined> {
    return this.sql.one<KeyOwnerRow>(
      `SELECT k.id AS key_id, k.label, k.revoked_at, a.id AS account_id, a.plan, a.overrides
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.key_hash = $1`,
      [keyHash],
    );
  }

  /** Records a use; one cheap statement, refreshed at most once per key cache period. */
  async touch(id: number, at: Date): Promise<void> {
    await this.sql.run(`UPDATE api_keys SET last_used_at = $2 WHERE id = $1`, [id, at]);
  }
}
