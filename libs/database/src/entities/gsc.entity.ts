import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** A synced Search Console property (natural key: account_id + property_uri). */
@Entity({ name: 'gsc_properties' })
export class GscPropertyEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ name: 'account_id', type: 'integer' }) accountId: number;
  @Column({ name: 'property_uri', type: 'text' }) propertyUri: string;
  @Column({ name: 'display_name', type: 'text' }) displayName: string;
  @Column({ type: 'text' }) status: string;
  @Column({ name: 'google_email', type: 'text' }) googleEmail: string;
  @Column({ name: 'is_sandbox', type: 'boolean' }) isSandbox: boolean;
  @Column({ name: 'last_synced_at', type: 'timestamptz', nullable: true })
  lastSyncedAt: Date | null;
  @Column({ name: 'last_sync_status', type: 'text', nullable: true }) lastSyncStatus: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/** A raw daily fact; its identity is the natural key (unique index gsc_rows_natural_key). */
@Entity({ name: 'gsc_rows' })
export class GscRowEntity {
  @PrimaryColumn({ name: 'property_id', type: 'integer' }) propertyId: number;
  @PrimaryColumn({ type: 'date' }) date: string;
  @PrimaryColumn({ type: 'text' }) query: string;
  @PrimaryColumn({ type: 'text' }) page: string;
  @PrimaryColumn({ type: 'text' }) country: string;
  @PrimaryColumn({ type: 'text' }) device: string;
  @PrimaryColumn({ name: 'search_appearance', type: 'text' }) searchAppearance: string;
  @Column({ name: 'account_id', type: 'integer' }) accountId: number;
  @Column({ type: 'integer' }) clicks: number;
  @Column({ type: 'integer' }) impressions: number;
  @Column({ type: 'double precision' }) position: number;
}

/** Daily per-dimension sums of gsc_rows (maintained by ingestion). */
@Entity({ name: 'gsc_daily_rollups' })
export class GscDailyRollupEntity {
  @PrimaryColumn({ name: 'property_id', type: 'integer' }) propertyId: number;
  @PrimaryColumn({ type: 'text' }) dim: string;
  @PrimaryColumn({ type: 'date' }) date: string;
  @PrimaryColumn({ type: 'text' }) key: string;
  @Column({ name: 'account_id', type: 'integer' }) accountId: number;
  @Column({ type: 'bigint' }) clicks: string;
  @Column({ type: 'bigint' }) impressions: string;
  @Column({ name: 'position_weighted', type: 'double precision' }) positionWeighted: number;
}

/** Calendar-month per-dimension sums (every dim but date), rebuilt from the daily rollups. */
@Entity({ name: 'gsc_monthly_rollups' })
export class GscMonthlyRollupEntity {
  @PrimaryColumn({ name: 'property_id', type: 'integer' }) propertyId: number;
  @PrimaryColumn({ type: 'text' }) dim: string;
  @PrimaryColumn({ type: 'date' }) month: string;
  @PrimaryColumn({ type: 'text' }) key: string;
  @Column({ name: 'account_id', type: 'integer' }) accountId: number;
  @Column({ type: 'bigint' }) clicks: string;
  @Column({ type: 'bigint' }) impressions: string;
  @Column({ name: 'position_weighted', type: 'double precision' }) positionWeighted: number;
}
