import {
  Check,
  Column,
  Entity,
  ForeignKey,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { AccountEntity } from './account.entity';

export type UsageCostGroup = 'research' | 'your-data' | 'other';

/**
 * Counted calls (one row per distinct line of a meter statement's batch, with its count),
 * appended by the monthly meter's own statement (CallMeterRepository): the same decision and
 * the same commit as the meter. The worker moves events into usage_daily
 * (one transaction: delete and add up), so events plus history always sum to the meter.
 * No foreign key (its check would lock the account row on every call). Schema: migration
 * 1765000000000.
 */
@Entity({ name: 'usage_events' })
export class UsageEventEntity {
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ type: 'date' })
  day: string;

  @Column({ name: 'key_id', type: 'integer' })
  keyId: number;

  @Column({ name: 'grant_id', type: 'integer' })
  grantId: number;

  @Column({ type: 'text' })
  endpoint: string;

  @Column({ name: 'cost_group', type: 'text' })
  costGroup: UsageCostGroup;

  @Column({ type: 'integer' })
  calls: number;
}

/**
 * Calls per account, UTC day, caller, endpoint (method and route template as the spec
 * writes it, e.g. `GET /jobs/{job_id}`) and cost group. The caller is an API key (`key_id`,
 * `grant_id` 0) or a hosted-MCP connection (`grant_id`, `key_id` 0). Filled by the worker's
 * roll-up of usage_events. No foreign key on the key or the grant: the history outlives
 * them. Kept 13 months (the worker's retention). Schema: migration 1765000000000.
 */
@Entity({ name: 'usage_daily' })
@Check('usage_daily_cost_group_check', `cost_group IN ('research', 'your-data', 'other')`)
@Check('usage_daily_calls_check', 'calls >= 0')
@Check('usage_daily_endpoint_check', 'length(endpoint) BETWEEN 1 AND 200')
@Check('usage_daily_caller_check', 'key_id >= 0 AND grant_id >= 0')
@Index('usage_daily_day_idx', ['day'])
export class UsageDailyEntity {
  @ForeignKey(() => AccountEntity, { name: 'usage_daily_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @PrimaryColumn({ name: 'key_id', type: 'integer' })
  keyId: number;

  @PrimaryColumn({ name: 'grant_id', type: 'integer' })
  grantId: number;

  @PrimaryColumn({ type: 'text' })
  endpoint: string;

  @PrimaryColumn({ name: 'cost_group', type: 'text' })
  costGroup: UsageCostGroup;

  @Column({ type: 'integer' })
  calls: number;
}

/**
 * An account's usage-alert settings: percentages of the monthly call allowance and where to
 * POST when a counted call reaches one (null: alerts off). Schema: migration 1765000000000.
 */
@Entity({ name: 'usage_alerts' })
@Check(
  'usage_alerts_thresholds_check',
  'cardinality(thresholds) BETWEEN 1 AND 3 AND 1 <= ALL (thresholds) AND 100 >= ALL (thresholds)',
)
export class UsageAlertsEntity {
  @ForeignKey(() => AccountEntity, { name: 'usage_alerts_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'webhook_url', type: 'text', nullable: true })
  webhookUrl: string | null;

  @Column({ type: 'smallint', array: true })
  thresholds: number[];

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

/**
 * A threshold that fired: one row per account, calendar month (its first day) and threshold,
 * inserted by the statement that writes the alert's delivery. Its primary key is what makes
 * an alert fire once per month whatever the concurrency. Schema: migration 1765000000000.
 */
@Entity({ name: 'usage_alert_fired' })
export class UsageAlertFiredEntity {
  @ForeignKey(() => AccountEntity, {
    name: 'usage_alert_fired_account_id_fkey',
    onDelete: 'CASCADE',
  })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  @PrimaryColumn({ type: 'date' })
  month: string;

  @PrimaryColumn({ type: 'smallint' })
  threshold: number;

  @Column({ name: 'fired_at', type: 'timestamptz' })
  firedAt: Date;

  @Column({ name: 'delivery_id', type: 'text', nullable: true })
  deliveryId: string | null;
}
