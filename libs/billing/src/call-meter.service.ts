import { Injectable } from '@nestjs/common';
import { metrics } from '@app/core';
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

interface Waiting {
  line: UsageLine;
  resolve: (result: MeterResult) => void;
  reject: (err: unknown) => void;
}

/** The calls of one account and cap waiting for the meter, and whether a statement is out. */
interface Lane {
  busy: boolean;
  queue: Waiting[];
}

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
  private readonly lanes = new Map<string, Lane>();

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
    const key = `${accountId}:${cap}:${at?.getTime() ?? ''}`;
    return new Promise((resolve, reject) => {
      let lane = this.lanes.get(key);
      if (!lane) {
        lane = { busy: false, queue: [] };
        this.lanes.set(key, lane);
      }
      lane.queue.push({ line, resolve, reject });
      if (!lane.busy) this.send(key, lane, accountId, at, cap);
    });
  }

  /** Calls counted this month (PostgreSQL's month; `at` only in tests) and that month. */
  used(accountId: number, at: Date | null): Promise<{ used: number; periodStart: string }> {
    return this.meter.used(accountId, at);
  }

  /** Sends the lane's waiting calls as one statement; then the next batch, if any. */
  private send(
    key: string,
    lane: Lane,
    accountId: number,
    at: Date | null,
    cap: number | null,
  ): void {
    lane.busy = true;
    const batch = lane.queue.splice(0, MAX_BATCH);
    this.meter
      .consume(
        accountId,
        at,
        cap,
        batch.map((w) => w.line),
      )
      .then(
        (outcome) => settle(batch, outcome, cap),
        (err: unknown) => {
          for (const w of batch) w.reject(err);
        },
      )
      .finally(() => {
        if (lane.queue.length > 0) {
          this.send(key, lane, accountId, at, cap);
        } else {
          lane.busy = false;
          this.lanes.delete(key);
        }
      });
  }
}

/** Answers each call of a batch by its place: the first `used - before` were admitted. */
function settle(batch: Waiting[], outcome: MeterOutcome, cap: number | null): void {
  const { count, periodStart } = outcome;
  const admitted = count ? count.used - count.before : 0;
  batch.forEach((w, i) => {
    if (i < admitted) {
      metrics.meterOperations.inc({ outcome: 'admitted' });
      w.resolve({ allowed: true, used: count!.before + i + 1, periodStart });
    } else {
      metrics.meterOperations.inc({ outcome: 'refused' });
      w.resolve({ allowed: false, used: cap ?? 0, periodStart });
    }
  });
}
