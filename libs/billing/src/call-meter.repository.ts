import { Injectable } from '@nestjs/common';
import { Sql, UsageCostGroup } from '@app/database';

/** Where a counted call goes in the usage history. */
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

/** What one meter statement did: the month's count before and after it. */
export interface MeterCount {
  before: number;
  used: number;
}

/** The statements of the monthly API call meter (tables api_call_meter and usage_events). */
@Injectable()
export class CallMeterRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Counts the calls of `lines` (in arrival order) in one atomic statement, as many as `cap`
   * still allows (`cap` null: all of them): the first `used - before` lines are admitted, the
   * rest refused. Null when none was admitted (the month was at the cap already).
   *
   * `used_before` keeps the count before the statement on the row itself, so the statement
   * can answer how many it admitted. Concurrent statements of one account (other batches,
   * other instances) serialize on the row lock: every call is admitted or refused exactly
   * once, against the cap.
   *
   * The same statement appends the admitted calls to the usage history (`usage_events`, one
   * row per distinct line with its count; the worker rolls them up into `usage_daily`): one
   * decision and one commit for the meter and the history, so the month's history always
   * sums to the meter, under any concurrency and across crashes (both or neither survive).
   *
   * The statement commits asynchronously (set_config(..., true) applies to its own implicit
   * transaction only): still atomic and exact; a PostgreSQL crash could forget the last
   * fraction of a second of counts, from the meter and the history together. Credits, quotas
   * and the ledger keep synchronous commits. See docs/pipeline-and-metering.md. A named
   * prepared statement: it runs for every API request (for several at once under load).
   */
  async consume(
    accountId: number,
    periodStart: string,
    cap: number | null,
    lines: UsageLine[],
  ): Promise<MeterCount | null> {
    const rows = await this.sql.prepared<{ used: number; used_before: number }>(
      'api_call_meter_consume',
      `WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true)),
       counted AS (
         INSERT INTO api_call_meter AS m (account_id, period_start, used, used_before)
         SELECT $1, $2::date, CASE WHEN $3::int IS NULL THEN $4::int ELSE LEAST($4::int, $3::int) END, 0
         FROM async_commit WHERE $3::int IS NULL OR $3::int > 0
         ON CONFLICT (account_id, period_start)
         DO UPDATE SET
           used_before = m.used,
           used = m.used + CASE WHEN $3::int IS NULL THEN $4::int ELSE LEAST($4::int, $3::int - m.used) END
         WHERE $3::int IS NULL OR m.used < $3::int
         RETURNING used, used_before),
       history AS (
         INSERT INTO usage_events (account_id, day, key_id, grant_id, endpoint, cost_group, calls)
         SELECT $1, l.day, l.key_id, l.grant_id, l.endpoint, l.cost_group, count(*)::int
         FROM counted,
              unnest($5::date[], $6::int[], $7::int[], $8::text[], $9::text[])
                WITH ORDINALITY AS l (day, key_id, grant_id, endpoint, cost_group, n)
         WHERE l.n <= counted.used - counted.used_before
         GROUP BY l.day, l.key_id, l.grant_id, l.endpoint, l.cost_group)
       SELECT used, used_before FROM counted`,
      [
        accountId,
        periodStart,
        cap,
        lines.length,
        lines.map((l) => l.day),
        lines.map((l) => l.keyId),
        lines.map((l) => l.grantId),
        lines.map((l) => l.endpoint),
        lines.map((l) => l.group),
      ],
    );
    return rows.length ? { before: rows[0].used_before, used: rows[0].used } : null;
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
