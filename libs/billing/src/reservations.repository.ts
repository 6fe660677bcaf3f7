import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { monthStart, plainDate } from '@app/core';
import { queryRows } from '@app/database';
import type { Feature } from './feature-quota.service';

/** The research endpoint a reservation pays for (also the cache kind). */
export type ResearchKind = 'backlinks' | 'keyword_research';

export interface Reservation {
  id: string;
  kind: 'quota' | 'credit';
}

/**
 * The reservations journal. Each statement here changes the money-like counter AND the
 * journal together (one SQL statement with data-modifying CTEs), so a crash can never
 * leave a unit taken without a journal row, or a row refunded without its unit given back:
 * - reserveQuota: the same conditional upsert as FeatureQuotaService.reserve + the row;
 * - reserveCredit: the same balance + ledger change as CreditsService.change + the row;
 * - refund: reserved → refunded, and the quota release or a new credit ledger row;
 * - commit: reserved → committed.
 * State changes are conditional on state = 'reserved', so a refund happens at most once
 * even when the request, another instance's sweeper and this one race.
 */
@Injectable()
export class ReservationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One unit of the month's feature quota; null when used up. */
  async reserveQuota(
    accountId: number,
    endpoint: ResearchKind,
    feature: Feature,
    limit: number,
    requestId: string,
    now: Date,
  ): Promise<Reservation | null> {
    const rows: Array<{ id: string }> = await this.db.query(
      `WITH q AS (
         INSERT INTO feature_usage AS f (account_id, feature, period_start, used)
         SELECT $1, $2, $3::date, 1 WHERE $4::int > 0
         ON CONFLICT (account_id, feature, period_start)
         DO UPDATE SET used = f.used + 1 WHERE f.used < $4::int
         RETURNING account_id
       )
       INSERT INTO research_reservations
         (account_id, request_id, endpoint, kind, feature, period_start, amount, state, created_at, updated_at)
       SELECT account_id, $5, $6, 'quota', $2, $3::date, 1, 'reserved', $7, $7 FROM q
       RETURNING id`,
      [accountId, feature, plainDate(monthStart(now)), limit, requestId, endpoint, now],
    );
    return rows.length ? { id: String(rows[0].id), kind: 'quota' } : null;
  }

  /** `amount` credits off the balance with a ledger row; null when the balance is too low. */
  async reserveCredit(
    accountId: number,
    endpoint: ResearchKind,
    amount: number,
    reason: string,
    requestId: string,
    now: Date,
  ): Promise<Reservation | null> {
    const rows: Array<{ id: string }> = await this.db.query(
      `WITH upd AS (
         UPDATE accounts SET credits = credits - $2::int, updated_at = now()
         WHERE id = $1 AND credits >= $2::int
         RETURNING id, credits
       ), led AS (
         INSERT INTO credit_ledger (account_id, delta, balance_after, reason, request_id)
         SELECT id, -$2::int, credits, $3, $4 FROM upd
         RETURNING account_id
       )
       INSERT INTO research_reservations
         (account_id, request_id, endpoint, kind, feature, period_start, amount, state, created_at, updated_at)
       SELECT account_id, $4, $5, 'credit', NULL, NULL, $2::int, 'reserved', $6, $6 FROM led
       RETURNING id`,
      [accountId, amount, reason, requestId, endpoint, now],
    );
    return rows.length ? { id: String(rows[0].id), kind: 'credit' } : null;
  }

  /** reserved → committed; false when it was no longer reserved (e.g. swept). */
  async commit(id: string, now: Date): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      `UPDATE research_reservations SET state = 'committed', updated_at = $2
       WHERE id = $1 AND state = 'reserved' RETURNING id`,
      [id, now],
    );
    return rows.length > 0;
  }

  /**
   * reserved → refunded, giving the unit back in the same statement: a quota release, or
   * the credits as a new ledger row (same request id). False when it was not reserved.
   */
  async refund(id: string, why: string, now: Date): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `WITH r AS (
         UPDATE research_reservations SET state = 'refunded', updated_at = $3
         WHERE id = $1 AND state = 'reserved'
         RETURNING account_id, kind, feature, period_start, amount, request_id, endpoint
       ), q AS (
         UPDATE feature_usage f SET used = f.used - r.amount FROM r
         WHERE r.kind = 'quota' AND f.account_id = r.account_id AND f.feature = r.feature
           AND f.period_start = r.period_start AND f.used >= r.amount
         RETURNING f.account_id
       ), c AS (
         UPDATE accounts a SET credits = a.credits + r.amount, updated_at = now() FROM r
         WHERE r.kind = 'credit' AND a.id = r.account_id
         RETURNING a.id, a.credits, r.amount, r.request_id, r.endpoint
       ), l AS (
         INSERT INTO credit_ledger (account_id, delta, balance_after, reason, request_id)
         SELECT id, amount, credits, 'refund: ' || endpoint || ' (' || $2 || ')', request_id FROM c
         RETURNING id
       )
       SELECT r.kind, (SELECT count(*) FROM q) AS released, (SELECT count(*) FROM l) AS ledger_rows FROM r`,
      [id, why, now],
    );
    return rows.length > 0;
  }

  /** Reservations still open that were made before `cutoff`, oldest first. */
  async staleIds(cutoff: Date, max: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT id FROM research_reservations WHERE state = 'reserved' AND created_at < $1
       ORDER BY created_at LIMIT $2`,
      [cutoff, max],
    );
    return rows.map((r) => String(r.id));
  }

  async find(
    id: string,
  ): Promise<{ state: string; kind: string; amount: number; request_id: string } | null> {
    const rows: Array<{ state: string; kind: string; amount: number; request_id: string }> =
      await this.db.query(
        `SELECT state, kind, amount, request_id FROM research_reservations WHERE id = $1`,
        [id],
      );
    return rows[0] ?? null;
  }
}
