import { Injectable, Logger } from '@nestjs/common';
import { Clock, PeriodicTask, metrics } from '@app/core';
import { Sql } from './sql';

/** How often the process clock is compared with PostgreSQL's (never per request). */
export const CLOCK_SKEW_CHECK_INTERVAL_MS = 30_000;
/** A skew larger than this is reported as `skewed` (in /health/ready and one log line). */
export const CLOCK_SKEW_MAX_MS = 5_000;

/** What /health/ready shows of the process clock against PostgreSQL's. */
export interface ClockSkewStatus {
  /** `unknown` until the first comparison (or while PostgreSQL does not answer). */
  status: 'ok' | 'skewed' | 'unknown';
  /** Process clock minus PostgreSQL's clock, ms (positive: the process runs ahead). */
  skew_ms: number | null;
  /** The largest skew reported as `ok`. */
  max_skew_ms: number;
}

/** PostgreSQL's clock (`clock_timestamp()`, the time the statement reads it). */
@Injectable()
export class DatabaseClockRepository {
  constructor(private readonly sql: Sql) {}

  async now(): Promise<Date> {
    const row = await this.sql.one<{ now: Date }>(`SELECT clock_timestamp() AS now`);
    return row!.now;
  }
}

/**
 * Compares this process's clock (the injected Clock) with PostgreSQL's every 30 s: the
 * months of the meter and the quotas come from PostgreSQL's clock (statement-time.ts), but
 * deadlines, TTLs, created_at stamps and the per-minute windows still use the process's, so a
 * drifting clock is worth seeing. The skew is the process time at the middle of the round
 * trip minus the database time (accurate to half the round trip). Reported, never enforced:
 * /health/ready shows it without failing (a balancer that dropped every instance whose NTP
 * hiccuped would turn a clock warning into an outage; the counts no longer depend on it), the
 * gauge `process_clock_skew_seconds` feeds an alert, and one warning is logged when the skew
 * passes CLOCK_SKEW_MAX_MS (and one line when it is back).
 */
@Injectable()
export class ClockSkewMonitor extends PeriodicTask<ClockSkewStatus> {
  protected readonly logger = new Logger(ClockSkewMonitor.name);
  protected readonly intervalMs = CLOCK_SKEW_CHECK_INTERVAL_MS;
  protected readonly taskName = 'Clock skew check';
  protected override readonly firstRunAfterMs = 1_000;
  private current: ClockSkewStatus = {
    status: 'unknown',
    skew_ms: null,
    max_skew_ms: CLOCK_SKEW_MAX_MS,
  };

  constructor(
    private readonly database: DatabaseClockRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  /** The last comparison. */
  status(): ClockSkewStatus {
    return this.current;
  }

  protected async run(): Promise<ClockSkewStatus> {
    const before = this.clock.now().getTime();
    let db: number;
    try {
      db = (await this.database.now()).getTime();
    } catch (err) {
      // Unknown while PostgreSQL does not answer (the failed round is logged by PeriodicTask).
      this.current = { status: 'unknown', skew_ms: null, max_skew_ms: CLOCK_SKEW_MAX_MS };
      throw err;
    }
    const after = this.clock.now().getTime();
    const skewMs = Math.round((before + after) / 2 - db);
    const status = Math.abs(skewMs) > CLOCK_SKEW_MAX_MS ? 'skewed' : 'ok';
    if (
      status !== this.current.status &&
      (status === 'skewed' || this.current.status === 'skewed')
    ) {
      const fields = { skew_ms: skewMs, max_skew_ms: CLOCK_SKEW_MAX_MS };
      if (status === 'skewed')
        this.logger.warn(fields, "This process's clock differs from PostgreSQL's");
      else this.logger.log(fields, "This process's clock agrees with PostgreSQL's again");
    }
    this.current = { status, skew_ms: skewMs, max_skew_ms: CLOCK_SKEW_MAX_MS };
    metrics.clockSkewSeconds.set(skewMs / 1000);
    return this.current;
  }
}
