import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { monthStart, plainDate } from '@app/core';
import { preparedRows } from '@app/database';

export interface MeterResult {
  /** False when the call was refused at the monthly cap (and so not counted). */
  allowed: boolean;
  /** Calls counted this month, this one included when allowed. */
  used: number;
}

/**
 * The monthly API call meter: one row per account and UTC calendar month, changed only by
 * a single atomic statement per request.
 */
@Injectable()
export class CallMeterService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Counts one call. With `enforce`, a call is refused (and not counted) once `limit`
   * calls are used; `limit` null means unlimited.
   *
   * Every request of an account updates the same row, so each commit waits for the row
   * lock and a WAL flush: with synchronous commit that caps an account near 1,500 calls/s
   * on one disk. The statement commits asynchronously (set_config(..., true) applies to its
   * own implicit transaction only): still atomic and exact under concurrency; a PostgreSQL
   * crash could forget the last fraction of a second of counts. Credits, quotas and the
   * ledger keep synchronous commits. See docs/metering.md.
   */
  async consume(
    accountId: number,
    limit: number | null,
    enforce: boolean,
    now: Date,
  ): Promise<MeterResult> {
    const cap = enforce ? limit : null;
    const rows = await preparedRows<{ used: number }>(
      this.db,
      'api_call_meter_consume',
      `WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true))
       INSERT INTO api_call_meter AS m (account_id, period_start, used)
       SELECT $1, $2::date, 1 FROM async_commit WHERE $3::int IS NULL OR $3::int > 0
       ON CONFLICT (account_id, period_start)
       DO UPDATE SET used = m.used + 1 WHERE $3::int IS NULL OR m.used < $3::int
       RETURNING used`,
      [accountId, plainDate(monthStart(now)), cap],
    );
    if (rows.length === 0) return { allowed: false, used: cap ?? 0 };
    return { allowed: true, used: rows[0].used };
  }

  async used(accountId: number, now: Date): Promise<number> {
    const rows: Array<{ used: number }> = await this.db.query(
      `SELECT used FROM api_call_meter WHERE account_id = $1 AND period_start = $2::date`,
      [accountId, plainDate(monthStart(now))],
    );
    return rows[0]?.used ?? 0;
  }
}
