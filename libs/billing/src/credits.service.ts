import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export type CreditChange =
  { ok: true; balance: number } | { ok: false; reason: 'insufficient' | 'no_account' };

/**
 * Credits: the balance on the account row and an append-only ledger, changed together by
 * one statement so they can never disagree and the balance can never go below zero.
 */
@Injectable()
export class CreditsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async change(
    accountId: number,
    delta: number,
    reason: string,
    requestId: string | null,
  ): Promise<CreditChange> {
    if (!Number.isInteger(delta) || delta === 0)
      throw new Error('credit delta must be a non-zero integer');
    const rows: Array<{ balance_after: number }> = await this.db.query(
      `WITH upd AS (
         UPDATE accounts SET credits = credits + $2, updated_at = now()
         WHERE id = $1 AND credits + $2 >= 0
         RETURNING id, credits
       )
       INSERT INTO credit_ledger (account_id, delta, balance_after, reason, request_id)
       SELECT id, $2, credits, $3, $4 FROM upd
       RETURNING balance_after`,
      [accountId, delta, reason, requestId],
    );
    if (rows.length) return { ok: true, balance: rows[0].balance_after };
    const exists: unknown[] = await this.db.query('SELECT 1 FROM accounts WHERE id = $1', [
      accountId,
    ]);
    return { ok: false, reason: exists.length ? 'insufficient' : 'no_account' };
  }

  /** Spends credits; false when the balance is too low (nothing is written then). */
  async spend(
    accountId: number,
    amount: number,
    reason: string,
    requestId: string | null,
  ): Promise<boolean> {
    return (await this.change(accountId, -amount, reason, requestId)).ok;
  }

  /** Gives spent credits back as a new ledger row. */
  async refund(
    accountId: number,
    amount: number,
    reason: string,
    requestId: string | null,
  ): Promise<void> {
    await this.change(accountId, amount, reason, requestId);
  }

  async balance(accountId: number): Promise<number | null> {
    const rows: Array<{ credits: number }> = await this.db.query(
      'SELECT credits FROM accounts WHERE id = $1',
      [accountId],
    );
    return rows[0]?.credits ?? null;
  }
}
