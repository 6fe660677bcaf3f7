import { Injectable } from '@nestjs/common';
import { AccountEntity, Sql } from '@app/database';
import { PlanName } from '@app/plans';

/** An account as the admin list shows it: the record and its people's e-mail addresses. */
export interface AccountListRow {
  id: number;
  name: string;
  plan: PlanName;
  credits: number;
  createdAt: Date;
  emails: string[];
}

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
   * One page of accounts, newest first, whose name or one of whose people's e-mail addresses
   * contains `search` (case-insensitive, taken literally: `%`, `_` and `\` match themselves),
   * with the e-mail addresses of each and the count of all that match.
   */
  async search(
    search: string | null,
    plan: PlanName | null,
    limit: number,
    offset: number,
  ): Promise<{ accounts: AccountListRow[]; total: number }> {
    const pattern = search === null ? null : `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const where = `($1::text IS NULL
         OR a.name ILIKE $1
         OR EXISTS (SELECT 1 FROM users u WHERE u.account_id = a.id AND u.email ILIKE $1))
       AND ($2::text IS NULL OR a.plan = $2)`;
    const [rows, count] = await Promise.all([
      this.sql.rows<AccountListRow>(
        `SELECT a.id, a.name, a.plan, a.credits, a.created_at AS "createdAt",
           ARRAY(SELECT u.email FROM users u WHERE u.account_id = a.id ORDER BY u.id) AS emails
         FROM accounts a
         WHERE ${where}
         ORDER BY a.id DESC
         LIMIT $3 OFFSET $4`,
        [pattern, plan, limit, offset],
      ),
      this.sql.one<{ total: number }>(
        `SELECT count(*)::int AS total FROM accounts a WHERE ${where}`,
        [pattern, plan],
      ),
    ]);
    return { accounts: rows, total: count?.total ?? 0 };
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
