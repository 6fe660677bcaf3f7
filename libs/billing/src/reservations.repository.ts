import { Injectable } from '@nestjs/common';
import { ResearchKind, ResearchReservationEntity, Sql, statementMonth } from '@app/database';
import type { Feature } from './feature-quota.service';
import { CHANGE_BALANCE_CTES } from './credits.repository';
import { TAKE_QUOTA_UNIT } from './feature-quota.repository';

/** The research endpoint a reservation pays for (also the cache kind). */
export type { ResearchKind };

export interface Reservation {
  id: string;
  kind: 'quota' | 'credit';
}

/** A quota unit asked for: the reservation (null when used up) and the month it counts in. */
export interface QuotaAttempt {
  reservation: Reservation | null;
  /** The database's month (YYYY-MM-DD, first day): the refusal's resets_at is the next one. */
  periodStart: string;
}

/**
 * The reservations journal (table research_reservations). Each statement here changes the
 * money-like counter AND the journal together (one SQL statement with data-modifying
 * CTEs), so a crash can never leave a unit taken without a journal row, or a row refunded
 * without its unit given back:
 * - reserveQuota: the quota upsert of FeatureQuotaRepository (TAKE_QUOTA_UNIT) + the row;
 * - reserveCredit: the balance + ledger change of CreditsRepository (CHANGE_BALANCE_CTES) + the row;
 * - refund: reserved → refunded, and the quota release or a new credit ledger row;
 * - commit: reserved → committed.
 * State changes are conditional on state = 'reserved', so a refund happens at most once
 * even when the request, another instance's sweeper and this one race.
 */
@Injectable()
export class ReservationsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * One unit of the month's feature quota (reservation null when used up), and the month. The
   * month is PostgreSQL's (`at`: `Clock.statementTime()`, null in production); `now` stamps
   * the journal row.
   */
  async reserveQuota(
    accountId: number,
    endpoint: ResearchKind,
    feature: Feature,
    limit: number,
    requestId: string,
    now: Date,
    at: Date | null,
  ): Promise<QuotaAttempt> {
    const row = await this.sql.one<{ id: string | null; period_start: string }>(
      `WITH q AS (${TAKE_QUOTA_UNIT}),
       r AS (
         INSERT INTO research_reservations
           (account_id, request_id, endpoint, kind, feature, period_start, amount, state, created_at, updated_at)
         SELECT account_id, $5, $6, 'quota', $2, period_start, 1, 'reserved', $7, $7 FROM q
         RETURNING id)
       SELECT (SELECT id FROM r) AS id, ${statementMonth('$3')}::text AS period_start`,
      [accountId, feature, at, limit, requestId, endpoint, now],
    );
    return {
      reservation: row?.id != null ? { id: String(row.id), kind: 'quota' } : null,
      periodStart: row!.period_start,
    };
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
    const row = await this.sql.one<{ id: string }>(
      `WITH ${CHANGE_BALANCE_CTES}
       INSERT INTO research_reservations
         (account_id, request_id, endpoint, kind, feature, period_start, amount, state, created_at, updated_at)
       SELECT account_id, $4, $5, 'credit', NULL, NULL, -$2::int, 'reserved', $6, $6 FROM led
       RETURNING id`,
      [accountId, -amount, reason, requestId, endpoint, now],
    );
    return row ? { id: String(row.id), kind: 'credit' } : null;
  }

  /** reserved → committed; false when it was no longer reserved (e.g. swept). */
  async commit(id: string, now: Date): Promise<boolean> {
    const rows = await this.sql.rows(
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
    const rows = await this.sql.rows(
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
    const rows = await this.sql.rows<{ id: string }>(
      `SELECT id FROM research_reservations WHERE state = 'reserved' AND created_at < $1
       ORDER BY created_at LIMIT $2`,
      [cutoff, max],
    );
    return rows.map((r) => String(r.id));
  }

  async find(id: string): Promise<ResearchReservationEntity | null> {
    return this.sql.repository(ResearchReservationEntity).findOneBy({ id });
  }
}
