import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/**
 * The monthly API call meter: one row per account and UTC calendar month, changed only
 * by one atomic upsert per statement (one call, or a batch of an account's concurrent calls:
 * CallMeterService). Schema: migrations 1763700000000 (foundation) and 1765000000000.
 */
@Entity({ name: 'api_call_meter' })
@Check('api_call_meter_used_check', 'used >= 0')
export class ApiCallMeterEntity {
  @ForeignKey(() => AccountEntity, { name: 'api_call_meter_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  /** The first day of the month (YYYY-MM-DD). */
  @PrimaryColumn({ name: 'period_start', type: 'date' })
  periodStart: string;

  @Column({ type: 'integer' })
  used: number;

  /**
   * `used` before the last statement that changed it: that statement admitted
   * `used - used_before` calls of its batch. Migration 1765000000000.
   */
  @Column({ name: 'used_before', type: 'integer', default: 0 })
  usedBefore: number;
}
