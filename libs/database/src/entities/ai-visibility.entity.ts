import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { AccountEntity } from './account.entity';

/** An AI-visibility project (natural key: account_id + domain + ai_engine). */
@Entity({ name: 'ai_visibility_projects' })
@Unique('ai_visibility_projects_natural_key', ['accountId', 'domain', 'aiEngine'])
@Index('ai_visibility_projects_account_idx', ['accountId', 'id'])
export class AiVisibilityProjectEntity {
  @PrimaryGeneratedColumn() id: number;
  @ForeignKey(() => AccountEntity, {
    name: 'ai_visibility_projects_account_id_fkey',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;
  @Column({ type: 'text' }) domain: string;
  @Column({ name: 'brand_name', type: 'text' }) brandName: string;
  @Column({ name: 'target_country', type: 'text' }) targetCountry: string;
  @Column({ name: 'target_language', type: 'text' }) targetLanguage: string;
  @Column({ name: 'ai_engine', type: 'text' }) aiEngine: string;
  @Column({ name: 'tracking_frequency', type: 'text' }) trackingFrequency: string;
  @Column({ type: 'text', default: 'active' }) status: string;
  @Column({ name: 'visibility_score', type: 'double precision', nullable: true }) visibilityScore:
    number | null;
  @Column({ name: 'previous_visibility_score', type: 'double precision', nullable: true })
  previousVisibilityScore: number | null;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' }) updatedAt: Date;
}

/** One scan of a project (natural key: project_id + snapshot_date, which serves "newest scan"). */
@Entity({ name: 'ai_visibility_snapshots' })
@Unique('ai_visibility_snapshots_natural_key', ['projectId', 'snapshotDate'])
@Check('ai_visibility_snapshots_prompts_evaluated_check', 'prompts_evaluated >= 0')
@Check('ai_visibility_snapshots_brand_mentions_check', 'brand_mentions >= 0')
export class AiVisibilitySnapshotEntity {
  @PrimaryGeneratedColumn() id: number;
  @ForeignKey(() => AccountEntity, {
    name: 'ai_visibility_snapshots_account_id_fkey',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;
  @ForeignKey(() => AiVisibilityProjectEntity, {
    name: 'ai_visibility_snapshots_project_id_fkey',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'project_id', type: 'integer' })
  projectId: number;
  @Column({ name: 'snapshot_date', type: 'date' }) snapshotDate: string;
  @Column({ name: 'visibility_score', type: 'double precision' }) visibilityScore: number;
  @Column({ name: 'geo_score', type: 'double precision' }) geoScore: number;
  @Column({ name: 'mention_rate', type: 'double precision' }) mentionRate: number;
  @Column({ name: 'avg_position', type: 'double precision', nullable: true }) avgPosition:
    number | null;
  @Column({ name: 'sentiment_avg', type: 'double precision', nullable: true }) sentimentAvg:
    number | null;
  @Column({ name: 'citation_rate', type: 'double precision' }) citationRate: number;
  @Column({ name: 'competition_score', type: 'double precision' }) competitionScore: number;
  @Column({ name: 'prompts_evaluated', type: 'integer' }) promptsEvaluated: number;
  @Column({ name: 'brand_mentions', type: 'integer' }) brandMentions: number;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' }) updatedAt: Date;
}

/** A competitor as seen in one snapshot (natural key: snapshot_id + competitor_domain). */
@Entity({ name: 'ai_visibility_competitors' })
@Unique('ai_visibility_competitors_natural_key', ['snapshotId', 'competitorDomain'])
@Check('ai_visibility_competitors_mention_count_check', 'mention_count >= 0')
// Top competitors of a snapshot by mention count (ties by domain). The DESC key order cannot
// be declared here, so TypeORM leaves this index alone (it exists: migration 1763800000000).
@Index('ai_visibility_competitors_rank_idx', { synchronize: false })
export class AiVisibilityCompetitorEntity {
  @PrimaryGeneratedColumn() id: number;
  @ForeignKey(() => AiVisibilitySnapshotEntity, {
    name: 'ai_visibility_competitors_snapshot_id_fkey',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'snapshot_id', type: 'integer' })
  snapshotId: number;
  @ForeignKey(() => AccountEntity, {
    name: 'ai_visibility_competitors_account_id_fkey',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;
  @Column({ name: 'competitor_name', type: 'text' }) competitorName: string;
  @Column({ name: 'competitor_domain', type: 'text' }) competitorDomain: string;
  @Column({ name: 'mention_count', type: 'integer' }) mentionCount: number;
  @Column({ name: 'visibility_score', type: 'double precision', nullable: true }) visibilityScore:
    number | null;
  @Column({ name: 'avg_position', type: 'double precision', nullable: true }) avgPosition:
    number | null;
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' }) updatedAt: Date;
}
