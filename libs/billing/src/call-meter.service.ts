import { Injectable } from '@nestjs/common';
import { metrics, monthStart, plainDate } from '@app/core';
import { CallMeterRepository, UsageLine } from './call-meter.repository';

export type { UsageLine } from './call-meter.repository';

export interface MeterResult {
  /** False when the call was refused at the monthly cap (and so not counted). */
  allowed: boolean;
  /** Calls counted this month, this one included when allowed. */
  used: number;
}

/**
 * The monthly API call meter: one row per account and UTC calendar month, changed only by
 * a single atomic statement per request (CallMeterRepository).
 */
@Injectable()
export class CallMeterService {
  constructor(private readonly meter: CallMeterRepository) {}

  /**
   * Counts one call, and records it in the usage history as `line` says (same statement).
   * With `enforce`, a call is refused (and not counted) once `limit` calls are used; `limit`
   * null means unlimited.
   */
  async consume(
    accountId: number,
    limit: number | null,
    enforce: boolean,
    now: Date,
    line: UsageLine,
  ): Promise<MeterResult> {
    const cap = enforce ? limit : null;
    const used = await this.meter.consume(accountId, plainDate(monthStart(now)), cap, line);
    if (used === null) {
      metrics.meterOperations.inc({ outcome: 'refused' });
      return { allowed: false, used: cap ?? 0 };
    }
    metrics.meterOperations.inc({ outcome: 'admitted' });
    return { allowed: true, used };
  }

  async used(accountId: number, now: Date): Promise<number> {
    return this.meter.used(accountId, plainDate(monthStart(now)));
  }
}
