import { Injectable } from '@nestjs/common';
import { Sql } from '@app/database';

/** The statements of the monthly API call meter (table api_call_meter). */
@Injectable()
export class CallMeterRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Counts one call in one atomic upsert, unless `cap` calls are already counted (`cap`
   * null: no cap). The month's count after the call, or null when it was refused.
   *
   * Every request of an account updates the same row, so each commit waits for the row
   * lock and a WAL flush: with synchronous commit that caps an account near 1,500 calls/s
   * on one disk. The statement commits asynchronously (set_config(..., true) applies to its
   * own implicit transaction only): still atomic and exact under concurrency; a PostgreSQL
   * crash could forget the last fraction of a second of counts. Credits, quotas and the
   * ledger keep synchronous commits. See docs/pipeline-and-metering.md. A named prepared statement: it
   * runs on every API request.
   */
  async consume(
    accountId: number,
    periodStart: string,
    cap: number | null,
  ): Promise<number | null> {
    const rows = await this.sql.prepared<{ used: number }>(
      'api_call_meter_consume',
      `WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true))
       INSERT INTO api_call_meter AS m (account_id, period_start, used)
       SELECT $1, $2::date, 1 FROM async_commit WHERE $3::int IS NULL OR $3::int > 0
       ON CONFLICT (account_id, period_start)
       DO UPDATE SET used = m.used + 1 WHERE $3::int IS NULL OR m.used < $3::int
       RETURNING used`,
      [accountId, periodStart, cap],
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
