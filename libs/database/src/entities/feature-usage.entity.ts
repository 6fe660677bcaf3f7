import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/**
 * Monthly feature quota units used, per account, feature and month. Schema: migration
 * 1763700000000 (foundation).
 */
@Entity({ name: 'feature_usage' })
@Check('feature_usage_used_check', 'used >= 0')
export class FeatureUsageEntity {
  @ForeignKey(() => AccountEntity, { name: 'feature_usage_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  /** keyword_research, backlinks or site_audit_crawls. */
  @PrimaryColumn({ type: 'text' })
  feature: string;

  /** The first day of the month (YYYY-MM-DD). */
  @PrimaryColumn({ name: 'period_start', type: 'date' })
  periodStart: string;

  @Column({ type: 'integer', default: 0 })
  used: number;
}
