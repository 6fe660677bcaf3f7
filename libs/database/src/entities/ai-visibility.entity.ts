import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An AI-visibility project (natural key: account_id + domain + ai_engine). */
@Entity({ name: 'ai_visibility_projects' })
export class AiVisibilityProjectEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ name: 'account_id', type: 'integer' }) accountId: number;
  @Column({ type: 'text' }) domain: string;
  @Column({ name: 'brand_name', type: 'text' }) brandName: string;
  @Column({ name: 'target_country', type: 'text' }) targetCountry: string;
  @Column({ name: 'target_language', type: 'text' }) targetLanguage: string;
  @Column({ name: 'ai_engine', type: 'text' }) aiEngine: string;
  @Column({ name: 'tracking_frequency', type: 'text' }) trackingFrequency: string;
  @Column({ type: 'text' }) status: string;
  @Column({ name: 'visibility_score', type: 'double precision', nullable: true }) visibilityScore:
    number | null;
  @Column({ name: 'previous_visibility_score', type: 'double precision', nullable: true })
  previousVisibilityScore: number | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/** One scan of a project (natural key: project_id + snapshot_date). */
@Entity({ name: 'ai_visibility_snapshots' })
export class AiVisibilitySnapshotEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ name: 'account_id', type: 'integer' }) accountId: number;
  @Column({ name: 'project_id', type: 'integer' }) projectId: number;
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
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/** A competitor as seen in one snapshot (natural key: snapshot_id + competitor_domain). */
@Entity({ name: 'ai_visibility_competitors' })
export class AiVisibilityCompetitorEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ name: 'snapshot_id', type: 'integer' }) snapshotId: number;
  @Column({ name: 'account_id', type: 'integer' }) accountId: number;
  @Column({ name: 'competitor_name', type: 'text' }) competitorName: string;
  @Column({ name: 'competitor_domain', type: 'text' }) competitorDomain: string;
  @Column({ name: 'mention_count', type: 'integer' }) mentionCount: number;
  @Column({ name: 'visibility_score', type: 'double precision', nullable: true }) visibilityScore:
    number | null;
  @Column({ name: 'avg_position', type: 'double precision', nullable: true }) avgPosition:
    number | null;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
