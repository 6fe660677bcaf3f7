import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { ApiKeyEntity, PlanName, Sql } from '@app/database';
import type { LimitOverrides } from '@app/billing';

/** What authentication needs of a key and its account (a join, not a table). */
export interface KeyOwnerRow {
  key_id: number;
  label: string;
  revoked_at: Date | null;
  account_id: number;
  plan: PlanName;
  overrides: LimitOverrides;
}

/** The statements of API keys: TypeORM for plain CRUD, raw SQL on the authentication path. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly sql: Sql) {}

  private get keys() {
    return this.sql.repository(ApiKeyEntity);
  }

  async create(
    accountId: number,
    label: string,
    prefix: string,
    keyHash: string,
  ): Promise<ApiKeyEntity> {
    const key = this.keys.create({
      accountId,
      label,
      prefix,
      keyHash,
      lastUsedAt: null,
      revokedAt: null,
    });
    await this.keys.insert(key);
    return key;
  }

  /** The account's keys in id order. */
  listByAccount(accountId: number): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { accountId }, order: { id: 'ASC' } });
  }

  /** Sets revoked_at unless already set (the first revocation time is kept); null when unknown. */
  async revoke(id: number): Promise<ApiKeyEntity | null> {
    await this.keys.update({ id, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    return this.keys.findOneBy({ id });
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
