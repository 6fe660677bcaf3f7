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

/** Where a Google connection stands: `reauth_required` after Google refused its refresh token. */
export const GSC_CONNECTION_STATUSES = ['active', 'reauth_required', 'revoked'] as const;
export type GscConnectionStatus = (typeof GSC_CONNECTION_STATUSES)[number];

/** A property's `status` (`GET /gsc/properties`). */
export const GSC_PROPERTY_STATUSES = ['active', 'paused', 'reauth_required'] as const;
export type GscPropertyStatus = (typeof GSC_PROPERTY_STATUSES)[number];

/** A property's `last_sync_status` (`GET /gsc/properties`), true at every moment. */
export const GSC_SYNC_STATUSES = [
  'pending',
  'syncing',
  'ok',
  'partial',
  'quota_exceeded',
  'reauth_required',
  'error',
] as const;
export type GscSyncStatus = (typeof GSC_SYNC_STATUSES)[number];

/**
 * One Google account an account connected (docs/gsc-sync.md). `refresh_token_enc` is the
 * refresh token sealed by the secret box (SECRETS_ENCRYPTION_KEY), never logged or shown.
 * Schema: migration 1765400000000.
 */
@Entity({ name: 'gsc_connections' })
@Check('gsc_connections_status_check', `status IN ('active', 'reauth_required', 'revoked')`)
@Index('gsc_connections_account_idx', ['accountId', 'id'])
export class GscConnectionEntity {
  @PrimaryGeneratedColumn() id: number;
  @ForeignKey(() => AccountEntity, { name: 'gsc_connections_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;
  @Column({ name: 'google_email', type: 'text' }) googleEmail: string;
  @Column({ name: 'refresh_token_enc', type: 'text' }) refreshTokenEnc: string;
  @Column({ type: 'text', default: 'active' }) status: GscConnectionStatus;
  /** What sites.list answered at (re)connect (migration 1765450000000, docs/gsc-connect.md). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  sites: Array<{ site_url: string; permission_level: string }>;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' }) updatedAt: Date;
}

/**
 * A synced Search Console property (natural key: account_id + property_uri). The sync state
 * (migration 1765400000000, docs/gsc-sync.md): the connection it syncs through (null for a
 * sandbox property or an imported one), the backfill's oldest day and progress, when it is
 * next due, the last error, and the claim that keeps two workers off it at once.
 */
@Entity({ name: 'gsc_properties' })
@Unique('gsc_properties_natural_key', ['accountId', 'propertyUri'])
@Index('gsc_properties_account_idx', ['accountId', 'id'])
@Index('gsc_properties_connection_idx', ['connectionId'])
@Index('gsc_properties_due_idx', ['nextSyncAt'], { where: `status = 'active'` })
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
  @ForeignKey(() => GscConnectionEntity, {
    name: 'gsc_properties_connection_id_fkey',
    onDelete: 'SET NULL',
  })
  @Column({ name: 'connection_id', type: 'integer', nullable: true })
  connectionId: number | null;
  /** Google's `permissionLevel` of the site (siteOwner, siteFullUser, ...). */
  @Column({ name: 'permission_level', type: 'text', nullable: true })
  permissionLevel: string | null;
  /** The oldest day the backfill pulls (null until the sync first plans it). */
  @Column({ name: 'backfill_from', type: 'date', nullable: true }) backfillFrom: string | null;
  @Column({ name: 'backfill_days_total', type: 'integer', default: 0 }) backfillDaysTotal: number;
  @Column({ name: 'backfill_days_done', type: 'integer', default: 0 }) backfillDaysDone: number;
  /** When the sync next looks at the property (null: now). */
  @Column({ name: 'next_sync_at', type: 'timestamptz', nullable: true })
  nextSyncAt: Date | null;
  @Column({ name: 'last_error', type: 'text', nullable: true }) lastError: string | null;
  /** A worker's claim on the property: no other worker syncs it before this passes. */
  @Column({ name: 'sync_claimed_until', type: 'timestamptz', nullable: true })
  syncClaimedUntil: Date | null;
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
