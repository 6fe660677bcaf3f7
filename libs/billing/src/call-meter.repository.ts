import { Injectable } from '@nestjs/common';
import { Sql, UsageCostGroup } from '@app/database';

/** Where a counted call goes in the usage history (table usage_daily). */
export interface UsageLine {
  /** The UTC day (YYYY-MM-DD) of the call. */
  day: string;
  /** The API key, or 0 for a hosted-MCP connection. */
  keyId: number;
  /** The hosted-MCP connection (OAuth grant), or 0 for an API key. */
  grantId: number;
  /** Method and route template as the spec writes it, e.g. `GET /jobs/{job_id}`. */
  endpoint: string;
  group: UsageCostGroup;
}

/** The statements of the monthly API call meter (tables api_call_meter and usage_events). */
@Injectable()
export class CallMeterRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Counts one call in one atomic statement, unless `cap` calls are already counted (`cap`
   * null: no cap). The month's count after the call, or null when it was refused.
   *
   * The same statement appends the call to the usage history (`usage_events`, rolled up into
   * `usage_daily` by the worker) only when the meter counted it: one decision, one commit, so
   * the month's history always sums to the meter, under any concurrency and across crashes
   * (both or neither survive). An append, not an upsert of a per-day counter: the meter row
   * is held while the statement runs, and a second hot row updated under it doubled the
   * statement's cost for a busy account (pgbench, docs/usage-history.md); an insert takes no
   * row lock.
   *
   * Every request of an account updates the same meter row, so each commit waits for the row
   * lock and a WAL flush: with synchronous commit that caps an account near 1,500 calls/s
   * on one disk. The statement commits asynchronously (set_config(..., true) applies to its
   * own implicit transaction only): still atomic and exact under concurrency; a PostgreSQL
   * crash could forget the last fraction of a second of counts (meter and history together).
   * Credits, quotas and the ledger keep synchronous commits. See
   * docs/pipeline-and-metering.md. A named prepared statement: it runs on every API request.
   */
  async consume(
    accountId: number,
    periodStart: string,
    cap: number | null,
    line: UsageLine,
  ): Promise<number | null> {
    const rows = await this.sql.prepared<{ used: number }>(
      'api_call_meter_consume',
      `WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true)),
       counted AS (
         INSERT INTO api_call_meter AS m (account_id, period_start, used)
         SELECT $1, $2::date, 1 FROM async_commit WHERE $3::int IS NULL OR $3::int > 0
         ON CONFLICT (account_id, period_start)
         DO UPDATE SET used = m.used + 1 WHERE $3::int IS NULL OR m.used < $3::int
         RETURNING used),
       history AS (
         INSERT INTO usage_events (account_id, day, key_id, grant_id, endpoint, cost_group)
         SELECT $1, $4::date, $5, $6, $7, $8 FROM counted)
       SELECT used FROM counted`,
      [accountId, periodStart, cap, line.day, line.keyId, line.grantId, line.endpoint, line.group],
    );
    return rows.length ? rows[0].used : null;
  }

  /** Calls counted in the month starting `periodStart` (0 when none). */
  async used(accountId: number, periodStart: string): Promise<number> {
    const row = await this.sql.one<{ used: number }>(
      `SELECT used FROM api_call_meter WHERE account_id = $1 AND period_start = $2::date`,
      [accountId, periodStart],
    );
    return row?.used ?? 0;
  }
}
