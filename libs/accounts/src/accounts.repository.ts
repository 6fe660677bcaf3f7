import { Injectable } from '@nestjs/common';
import { AccountEntity, Sql } from '@app/database';
import { PlanName } from '@app/plans';

/** The statements of accounts: TypeORM for plain CRUD, one raw statement for the update. */
@Injectable()
export class AccountsRepository {
  constructor(private readonly sql: Sql) {}

  private get accounts() {
    return this.sql.repository(AccountEntity);
  }

  /** A new account (credits 0, no overrides: the column defaults). */
  async create(name: string, plan: PlanName): Promise<AccountEntity> {
    const account = this.accounts.create({ name, plan });
    await this.accounts.insert(account);
    return account;
  }

  find(id: number): Promise<AccountEntity | null> {
    return this.accounts.findOneBy({ id });
  }

  /** The oldest account of that name. */
  findByName(name: string): Promise<AccountEntity | null> {
    return this.accounts.findOne({ where: { name }, order: { id: 'ASC' } });
  }

  /**
   * Changes name and plan (null keeps them) and merges overrides in one statement: `set`
   * members are written, `removed` members deleted, others kept.
   */
  async update(
    id: number,
    name: string | null,
    plan: PlanName | null,
    set: Record<string, number | 'unlimited'>,
    removed: string[],
  ): Promise<AccountEntity | null> {
    const row = await this.sql.one<AccountEntity>(
      `UPDATE accounts SET
         name = COALESCE($2, name),
         plan = COALESCE($3, plan),
         overrides = (overrides - $5::text[]) || $4::jsonb,
         updated_at = now()
       WHERE id = $1
       RETURNING id, name, plan, credits, overrides,
         created_at AS "createdAt", updated_at AS "updatedAt"`,
      [id, name, plan, JSON.stringify(set), removed],
    );
    return row ? this.accounts.create(row) : null;
  }
}
