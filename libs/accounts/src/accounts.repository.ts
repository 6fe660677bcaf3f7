import { Injectable } from '@nestjs/common';
import { AccountEntity, Sql } from '@app/database';
import { PlanName } from '@app/plans';

/** A page of accounts found by `search`, with the e-mails of their users. */
export interface AccountSearchPage {
  accounts: Array<AccountEntity & { emails: string[] }>;
  /** Accounts matching the search, all pages together. */
  total: number;
}

/** A LIKE pattern matching `text` anywhere, its `\`, `%` and `_` taken literally (ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
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

  /**
   * Accounts whose name or one of whose users' e-mails contains `text` (case-insensitive,
   * matched literally: `%` and `_` are not wildcards), or all with null; newest first.
   */
  async search(text: string | null, limit: number, offset: number): Promise<AccountSearchPage> {
    const pattern = text === null ? null : containsPattern(text);
    const where = `$1::text IS NULL
         OR a.name ILIKE $1 ESCAPE '\\'
         OR EXISTS (SELECT 1 FROM users u WHERE u.account_id = a.id AND u.email ILIKE $1 ESCAPE '\\')`;
    const [rows, count] = await Promise.all([
      this.sql.rows<AccountEntity & { emails: string[] }>(
        `SELECT a.id, a.name, a.plan, a.credits, a.overrides,
           a.created_at AS "createdAt", a.updated_at AS "updatedAt",
           COALESCE(ARRAY(SELECT u.email FROM users u WHERE u.account_id = a.id ORDER BY u.id), '{}') AS emails
         FROM accounts a
         WHERE ${where}
         ORDER BY a.id DESC
         LIMIT $2 OFFSET $3`,
        [pattern, limit, offset],
      ),
      this.sql.one<{ total: string }>(`SELECT count(*) AS total FROM accounts a WHERE ${where}`, [
        pattern,
      ]),
    ]);
    return { accounts: rows, total: Number(count?.total ?? 0) };
  }
}
