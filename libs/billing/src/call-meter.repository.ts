import { Injectable } from '@nestjs/common';
import { Sql, UsageCostGroup, statementDay, statementMonth } from '@app/database';

/** Where a counted call goes in the usage history (its day is the statement's, PostgreSQL's). */
export interface UsageLine {
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

/** The meter statement's answer. */
export interface MeterOutcome {
  /** The month the statement counted in: PostgreSQL's (YYYY-MM-DD, its first day). */
  periodStart: string;
  /** Null when none was admitted (the month was at the cap already). */
  count: MeterCount | null;
}

/** The statements of the monthly API call meter (tables api_call_meter and usage_events). */
@Injectable()
export class CallMeterRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Counts the calls of `lines` (in arrival order) in one atomic statement, as many as `cap`
   * still allows (`cap` null: all of them): the first `used - before` lines are admitted, the
   * rest refused. `count` null when none was admitted (the month was at the cap already).
   *
   * The month and the history's day are the statement's, from PostgreSQL's clock (`at`:
   * `Clock.statementTime()`, null in production; a test clock's time in tests): API
   * processes whose clocks disagree still count in one month.
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
   * The statement commits synchronously whatever the server's default (set_config(..., true)
   * applies to its own implicit transaction only): under Patroni's synchronous mode the call
   * is answered only once a standby has the count, so a failover never forgets a call that
   * was answered (issue 43; the failover topology run measured 9 of 4,338 lost with the
   * earlier asynchronous commit). Credits, quotas and the ledger commit synchronously too. See
   * docs/pipeline-and-metering.md. A named prepared statement: it runs for every API request
   * (for several at once under load).
   */
  async consume(
    accountId: number,
    at: Date | null,
    cap: number | null,
    lines: UsageLine[],
  ): Promise<MeterOutcome> {
    const rows = await this.sql.prepared<MeterRow>('api_call_meter_consume', meterConsumeSql(), [
      accountId,
      at,
      cap,
      lines.length,
      lines.map((l) => l.keyId),
      lines.map((l) => l.grantId),
      lines.map((l) => l.endpoint),
      lines.map((l) => l.group),
    ]);
    const row = rows[0];
    return {
      periodStart: row.period_start,
      count:
        row.used !== null && row.used_before !== null
          ? { before: row.used_before, used: row.used }
          : null,
    };
  }

  /**
   * Calls counted in the month of `at` (null: PostgreSQL's clock), 0 when none, and that
   * month (YYYY-MM-DD).
   */
  async used(accountId: number, at: Date | null): Promise<{ used: number; periodStart: string }> {
    const row = await this.sql.one<{ used: number; period_start: string }>(
      `SELECT COALESCE((SELECT used FROM api_call_meter
                        WHERE account_id = $1 AND period_start = ${statementMonth('$2')}), 0) AS used,
              ${statementMonth('$2')}::text AS period_start`,
      [accountId, at],
    );
    return { used: row!.used, periodStart: row!.period_start };
  }
}

/** The row of the meter statement (`CallMeterRepository.consume`). */
interface MeterRow {
  period_start: string;
  used: number | null;
  used_before: number | null;
}

/**
 * The text of the prepared statement `api_call_meter_consume` (see
 * `CallMeterRepository.consume`): $1 account, $2 statement time, $3 cap, $4 calls, $5-$8 the
 * lines' key ids, grant ids, endpoints and cost groups.
 */
function meterConsumeSql(): string {
  return `WITH durable AS (SELECT set_config('synchronous_commit', 'on', true)),
       t AS (SELECT ${statementMonth('$2')} AS period, ${statementDay('$2')} AS day
             FROM durable),
       counted AS (
         INSERT INTO api_call_meter AS m (account_id, period_start, used, used_before)
         SELECT $1, t.period, CASE WHEN $3::int IS NULL THEN $4::int ELSE LEAST($4::int, $3::int) END, 0
         FROM t WHERE $3::int IS NULL OR $3::int > 0
         ON CONFLICT (account_id, period_start)
         DO UPDATE SET
           used_before = m.used,
           used = m.used + CASE WHEN $3::int IS NULL THEN $4::int ELSE LEAST($4::int, $3::int - m.used) END
         WHERE $3::int IS NULL OR m.used < $3::int
         RETURNING used, used_before),
       history AS (
         INSERT INTO usage_events (account_id, day, key_id, grant_id, endpoint, cost_group, calls)
         SELECT $1, t.day, l.key_id, l.grant_id, l.endpoint, l.cost_group, count(*)::int
         FROM counted, t,
              unnest($5::int[], $6::int[], $7::text[], $8::text[])
                WITH ORDINALITY AS l (key_id, grant_id, endpoint, cost_group, n)
         WHERE l.n <= counted.used - counted.used_before
         GROUP BY t.day, l.key_id, l.grant_id, l.endpoint, l.cost_group)
       SELECT t.period::text AS period_start, c.used, c.used_before
       FROM t LEFT JOIN counted c ON true`;
}
