import { Injectable } from '@nestjs/common';
import { AccountEntity, Sql } from '@app/database';

/**
 * Two CTEs that change the balance of account $1 by $2 credits (never below 0) and append
 * the ledger row (reason $3, request id $4) in the same statement; `led` returns
 * (account_id, balance_after) and is empty when the account is unknown or the balance too
 * low. Shared by every statement that moves credits, so they cannot disagree.
 */
export const CHANGE_BALANCE_CTES = `upd AS (
         UPDATE accounts SET credits = credits + $2::int, updated_at = now()
         WHERE id = $1 AND credits + $2::int >= 0
         RETURNING id, credits
       ), led AS (
         INSERT INTO credit_ledger (account_id, delta, balance_after, reason, request_id)
         SELECT id, $2::int, credits, $3, $4 FROM upd
         RETURNING account_id, balance_after
       )`;

/** The statements of credits: the balance on the account row and the append-only ledger. */
@Injectable()
export class CreditsRepository {
  constructor(private readonly sql: Sql) {}

  /** Balance and ledger row in one statement; the new balance, or null when nothing changed. */
  async change(
    accountId: number,
    delta: number,
    reason: string,
    requestId: string | null,
  ): Promise<number | null> {
    const row = await this.sql.one<{ balance_after: number }>(
      `WITH ${CHANGE_BALANCE_CTES} SELECT balance_after FROM led`,
      [accountId, delta, reason, requestId],
    );
    return row?.balance_after ?? null;
  }

  async accountExists(accountId: number): Promise<boolean> {
    return this.sql.repository(AccountEntity).existsBy({ id: accountId });
  }

  async balance(accountId: number): Promise<number | null> {
    const account = await this.sql
      .repository(AccountEntity)
      .findOne({ select: { credits: true }, where: { id: accountId } });
    return account?.credits ?? null;
  }
}
