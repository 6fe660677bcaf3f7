import {
  Check,
  Column,
  Entity,
  ForeignKey,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';
import { AccountEntity } from './account.entity';

/** A synced Search Console property (natural key: account_id + property_uri). */
@Entity({ name: 'gsc_properties' })
@Unique('gsc_properties_natural_key', ['accountId', 'propertyUri'])
@Index('gsc_properties_account_idx', ['accountId', 'id'])
export class GscPropertyEntity {
  @PrimaryGeneratedColumn() id: number;
  @ForeignKey(() => AccountEntity, { name: 'gsc_properties_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;
  @Column({ name: 'property_uri', type: 'text' }) propertyUri: string;
  @Column({ name: 'display_name', type: 'text' }) displayName: string;
  @Column({ type: 'text', default: 'active' }) status: string;
  @Column({ name: 'google_email', type: 'text' }) googleEmail: string;
  @Column({ name: 'is_sandbox', type: 'boolean', default: false }) isSandbox: boolean;
  @Column({ name: 'last_synced_at', type: 'timestamptz', nullable: true })
  lastSyncedAt: Date | null;
  @Column({ name: 'last_sync_status', type: 'text', nullable: true }) lastSyncStatus: string | null;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' }) updatedAt: Date;
}

/**
 * A raw daily fact. Its primary key is the natural key (gsc_rows_pkey, promoted from the
 * unique index gsc_rows_natural_key by migration 1764100000000); it leads with
 * (property_id, date), so rebuilding the rollups of one date is an index range scan.
 */
@Entity({ name: 'gsc_rows' })
@Check('gsc_rows_clicks_check', 'clicks >= 0')
@Check('gsc_rows_impressions_check', 'impressions >= 0')
@Check('gsc_rows_position_check', 'position >= 1')
export class GscRowEntity {
  @ForeignKey(() => GscPropertyEntity, {
    name: 'gsc_rows_property_id_fkey',
    onDelete: 'CASCADE',
  })
  @PrimaryColumn({ name: 'property_id', type: 'integer' })
  propertyId: number;
  @PrimaryColumn({ type: 'date' }) date: string;
  @PrimaryColumn({ type: 'text' }) query: string;
  @PrimaryColumn({ type: 'text' }) page: string;
  @PrimaryColumn({ type: 'text' }) country: string;
  @PrimaryColumn({ type: 'text' }) device: string;
  /** '' = no search appearance. */
  @PrimaryColumn({ name: 'search_appearance', type: 'text', default: '' })
  searchAppearance: string;
  @ForeignKey(() => AccountEntity, { name: 'gsc_rows_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;
  @Column({ type: 'integer' }) clicks: number;
  @Column({ type: 'integer' }) impressions: number;
  @Column({ type: 'double precision' }) position: number;
}

/**
 * The columns every GSC rollup table shares, defined once: per-dimension sums keyed by
 * (property_id, dim, <period>, key), where `period` names the table's date column (date,
 * week or month) and `table` prefixes the foreign-key names.
 */
function gscRollupColumns(table: string, period: 'date' | 'week' | 'month') {
  abstract class GscRollupColumns {
    @ForeignKey(() => GscPropertyEntity, {
      name: `${table}_property_id_fkey`,
      onDelete: 'CASCADE',
    })
    @PrimaryColumn({ name: 'property_id', type: 'integer' })
    propertyId: number;
    @PrimaryColumn({ type: 'text' }) dim: string;
    /** The first day of the rollup's period (column `date`, `week` or `month`). */
    @PrimaryColumn({ name: period, type: 'date' }) period: string;
    @PrimaryColumn({ type: 'text' }) key: string;
    @ForeignKey(() => AccountEntity, { name: `${table}_account_id_fkey`, onDelete: 'CASCADE' })
    @Column({ name: 'account_id', type: 'integer' })
    accountId: number;
    @Column({ type: 'bigint' }) clicks: string;
    @Column({ type: 'bigint' }) impressions: string;
    @Column({ name: 'position_weighted', type: 'double precision' }) positionWeighted: number;
  }
  return GscRollupColumns;
}

/**
 * Daily per-dimension sums of gsc_rows (maintained by ingestion). dim is one of query, page,
 * country, device, searchAppearance, date (key = the date). The primary key
 * gsc_daily_rollups_pkey (property_id, dim, date, key) INCLUDEs the sums (index-only scans);
 * it was promoted from the unique index gsc_daily_rollups_key by migration 1764100000000.
 */
@Entity({ name: 'gsc_daily_rollups' })
export class GscDailyRollupEntity extends gscRollupColumns('gsc_daily_rollups', 'date') {}

/**
 * Per-dimension sums (every dim but date) of the 7-day blocks of a calendar month: days 1-7,
 * 8-14, 15-21, 22-28 and 29 to the month's end; `week` is the block's first day (migration
 * 1764600000000). Blocks never cross a month, so retention by month stays exact. Primary key
 * gsc_weekly_rollups_pkey (property_id, dim, week, key) INCLUDE the sums.
 */
@Entity({ name: 'gsc_weekly_rollups' })
@Check('gsc_weekly_rollups_week_check', 'extract(day FROM week) IN (1, 8, 15, 22, 29)')
export class GscWeeklyRollupEntity extends gscRollupColumns('gsc_weekly_rollups', 'week') {}

/**
 * Calendar-month per-dimension sums (every dim but date). Primary key
 * gsc_monthly_rollups_pkey (property_id, dim, month, key) INCLUDE the sums, promoted from the
 * unique index gsc_monthly_rollups_key by migration 1764100000000.
 */
@Entity({ name: 'gsc_monthly_rollups' })
@Check('gsc_monthly_rollups_month_check', 'extract(day FROM month) = 1')
export class GscMonthlyRollupEntity extends gscRollupColumns('gsc_monthly_rollups', 'month') {}
