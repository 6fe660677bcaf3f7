import { Injectable } from '@nestjs/common';
import { ReadSql, Sql } from '@app/database';

/** One row of the history's single aggregate read (see `summary`). */
export interface UsageSummaryRow {
  /** 'day' (per day and cost group), 'caller' (per key or connection) or 'endpoint'. */
  by: 'day' | 'caller' | 'endpoint';
  day: string | null;
  cost_group: string | null;
  key_id: number | null;
  grant_id: number | null;
  endpoint: string | null;
  calls: number;
  key_label: string | null;
  key_prefix: string | null;
  client_name: string | null;
}

/**
 * An account's calls in a range of days, wherever they are: in `usage_daily`, or still in
 * `usage_events` (appended by the meter's statement, not yet rolled up). A call is in exactly
 * one of them at any snapshot: the roll-up moves events in one transaction.
 */
const CALLS_IN_RANGE = `
  SELECT day, key_id, grant_id, endpoint, cost_group, calls FROM usage_daily
  WHERE account_id = $1 AND day BETWEEN $2::date AND $3::date
  UNION ALL
  SELECT day, key_id, grant_id, endpoint, cost_group, calls FROM usage_events
  WHERE account_id = $1 AND day BETWEEN $2::date AND $3::date`;

/**
 * The usage history: the account's figures over a range of days, the worker's roll-up of the
 * meter's events into daily rows, and the retention.
 */
@Injectable()
export class UsageHistoryRepository {
  constructor(
    private readonly reads: ReadSql,
    private readonly sql: Sql,
  ) {}

  /**
   * The account's calls from `from` to `to` (dates, both included) three ways in one scan of
   * the account's range: per day and cost group, per caller (with the key's label and prefix,
   * or the connection's app name), and per endpoint. Served by a hot standby when one is
   * configured (ReadSql).
   */
  summary(accountId: number, from: string, to: string): Promise<UsageSummaryRow[]> {
    return this.reads.read((sql) =>
      sql.prepared<UsageSummaryRow>(
        'usage_history_summary',
        `WITH g AS (
           SELECT day, cost_group, key_id, grant_id, endpoint, sum(calls)::int AS calls,
                  GROUPING(day, cost_group) AS not_day, GROUPING(key_id, grant_id) AS not_caller
           FROM (${CALLS_IN_RANGE}) AS c
           GROUP BY GROUPING SETS ((day, cost_group), (key_id, grant_id), (endpoint)))
         SELECT CASE WHEN g.not_day = 0 THEN 'day' WHEN g.not_caller = 0 THEN 'caller' ELSE 'endpoint' END AS by,
                to_char(g.day, 'YYYY-MM-DD') AS day, g.cost_group, g.key_id, g.grant_id, g.endpoint, g.calls,
                k.label AS key_label, k.prefix AS key_prefix, cl.client_name
         FROM g
         LEFT JOIN api_keys k ON g.not_caller = 0 AND k.id = g.key_id AND k.account_id = $1
         LEFT JOIN oauth_grants og ON g.not_caller = 0 AND og.id = g.grant_id AND og.account_id = $1
         LEFT JOIN oauth_clients cl ON cl.id = og.client_pk`,
        [accountId, from, to],
      ),
    );
  }

  /** Calls of each of the account's keys from `from` to `to` (the console's keys table). */
  async callsPerKey(accountId: number, from: string, to: string): Promise<Map<number, number>> {
    const rows = await this.reads.read((sql) =>
      sql.rows<{ key_id: number; calls: number }>(
        `SELECT key_id, sum(calls)::int AS calls FROM (${CALLS_IN_RANGE}) AS c
         WHERE key_id > 0 GROUP BY key_id`,
        [accountId, from, to],
      ),
    );
    return new Map(rows.map((r) => [r.key_id, r.calls]));
  }

  /**
   * Moves up to `limit` events into `usage_daily`, in one transaction (delete, add up, upsert):
   * no call is lost or counted twice, whatever crashes. Events locked by a concurrent roll-up
   * are skipped (several workers may run it). Events of accounts deleted meanwhile are dropped.
   * Answers how many events were moved.
   */
  async rollUp(limit: number): Promise<number> {
    const row = await this.sql.one<{ moved: number }>(
      `WITH moved AS (
         DELETE FROM usage_events e
         WHERE (e.account_id, e.id) IN (
           SELECT account_id, id FROM usage_events LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING e.account_id, e.day, e.key_id, e.grant_id, e.endpoint, e.cost_group, e.calls),
       added AS (
         INSERT INTO usage_daily AS u (account_id, day, key_id, grant_id, endpoint, cost_group, calls)
         SELECT m.account_id, m.day, m.key_id, m.grant_id, m.endpoint, m.cost_group, sum(m.calls)::int
         FROM moved m JOIN accounts a ON a.id = m.account_id
         GROUP BY m.account_id, m.day, m.key_id, m.grant_id, m.endpoint, m.cost_group
         ON CONFLICT (account_id, day, key_id, grant_id, endpoint, cost_group)
         DO UPDATE SET calls = u.calls + EXCLUDED.calls)
       SELECT count(*)::int AS moved FROM moved`,
      [limit],
    );
    return row?.moved ?? 0;
  }

  /** Deletes up to `limit` rows of days before `before`; answers how many went. */
  async deleteBefore(before: string, limit: number): Promise<number> {
    const rows = await this.sql.rows(
      `DELETE FROM usage_daily WHERE ctid IN (
         SELECT ctid FROM usage_daily WHERE day < $1::date LIMIT $2)
       RETURNING 1`,
      [before, limit],
    );
    return rows.length;
  }

  /** Deletes the record of alerts fired in months before `before` (the month's first day). */
  async deleteFiredBefore(before: string): Promise<number> {
    const rows = await this.sql.rows(
      `DELETE FROM usage_alert_fired WHERE month < $1::date RETURNING 1`,
      [before],
    );
    return rows.length;
  }
}
