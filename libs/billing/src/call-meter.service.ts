import { Injectable } from '@nestjs/common';
import { GroupCommit, metrics } from '@app/core';
import { CallMeterRepository, MeterOutcome, UsageLine } from './call-meter.repository';

export type { UsageLine } from './call-meter.repository';

interface MeterResult {
  /** False when the call was refused at the monthly cap (and so not counted). */
  allowed: boolean;
  /** Calls counted this month, this one included when allowed. */
  used: number;
  /** The month counted in: PostgreSQL's (YYYY-MM-DD, its first day); resets_at is the next. */
  periodStart: string;
}

/** The most calls one meter statement takes. */
const MAX_BATCH = 500;

/**
 * The monthly API call meter: one row per account and UTC calendar month (PostgreSQL's
 * clock, never the process's), changed only by one atomic statement (CallMeterRepository),
 * which also writes the usage history.
 *
 * Group commit: while a meter statement of an account is running, the next calls of that
 * account (same month, same cap) wait and then go together in one statement, each admitted
 * or refused by its place in arrival order. A lone call goes at once, as before; under load
 * an account's calls share statements instead of queueing on its row lock one by one.
 * Exactness does not depend on it: statements of other batches and instances serialize on
 * the row lock as before.
 */
@Injectable()
export class CallMeterService {
  private readonly batches = new GroupCommit<UsageLine, MeterResult>(MAX_BATCH);

  constructor(private readonly meter: CallMeterRepository) {}

  /**
   * Counts one call, and records it in the usage history as `line` says (same statement).
   * With `enforce`, a call is refused (and not counted) once `limit` calls are used; `limit`
   * null means unlimited. The month is PostgreSQL's (`at`: `Clock.statementTime()`, null in
   * production; a test clock's time in tests, which then also keys the lane).
   */
  consume(
    accountId: number,
    limit: number | null,
    enforce: boolean,
    at: Date | null,
    line: UsageLine,
  ): Promise<MeterResult> {
    const cap = enforce ? limit : null;
    return this.batches.submit(`${accountId}:${cap}:${at?.getTime() ?? ''}`, line, (lines) =>
      this.meter
        .consume(accountId, at, cap, lines)
        .then((outcome) => answers(lines.length, outcome, cap)),
    );
  }

  /** Calls counted this month (PostgreSQL's month; `at` only in tests) and that month. */
  used(accountId: number, at: Date | null): Promise<{ used: number; periodStart: string }> {
    return this.meter.used(accountId, at);
  }
}

/** The answer to each call of a batch by its place: the first `used - before` were admitted. */
function answers(size: number, outcome: MeterOutcome, cap: number | null): MeterResult[] {
  const { count, periodStart } = outcome;
  const admitted = count ? count.used - count.before : 0;
  return Array.from({ length: size }, (_, i) => {
    if (i < admitted) {
      metrics.meterOperations.inc({ outcome: 'admitted' });
      return { allowed: true, used: count!.before + i + 1, periodStart };
    }
    metrics.meterOperations.inc({ outcome: 'refused' });
    return { allowed: false, used: cap ?? 0, periodStart };
  });
}
