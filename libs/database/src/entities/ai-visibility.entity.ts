import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { AccountEntity } from './account.entity';

/** A tracked competitor of a project (`ai_visibility_projects.competitors`). */
export interface AiCompetitor {
  name: string;
  domain: string;
}

/**
 * An AI-visibility project (natural key: account_id + domain + ai_engine). The customer's
 * brand aliases, prompts and competitors, and the scan state (migration 1765600000000,
 * docs/ai-visibility-scans.md): when it is next due (null: never scanned by the service, as
 * admin-made projects without prompts), the claim that keeps two workers off it, the last error.
 */
@Entity({ name: 'ai_visibility_projects' })
@Unique('ai_visibility_projects_natural_key', ['accountId', 'domain', 'aiEngine'])
@Index('ai_visibility_projects_account_idx', ['accountId', 'id'])
@Index('ai_visibility_projects_due_idx', ['nextScanAt'], {
  where: `status = 'active' AND next_scan_at IS NOT NULL`,
})
@Check('ai_visibility_projects_competitors_check', `jsonb_typeof(competitors) = 'array'`)
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
  @Column({ name: 'brand_aliases', type: 'text', array: true, default: () => "'{}'" })
  brandAliases: string[];
  /** The questions asked at each scan, in the customer's order. */
  @Column({ type: 'text', array: true, default: () => "'{}'" }) prompts: string[];
  @Column({ type: 'jsonb', default: () => "'[]'" }) competitors: AiCompetitor[];
  /** When the scans next look at the project (null: never). */
  @Column({ name: 'next_scan_at', type: 'timestamptz', nullable: true }) nextScanAt: Date | null;
  /** A worker's claim on the project: no other worker scans it before this passes. */
  @Column({ name: 'scan_claimed_until', type: 'timestamptz', nullable: true })
  scanClaimedUntil: Date | null;
  @Column({ name: 'last_scan_error', type: 'text', nullable: true }) lastScanError: string | null;
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

/** Where a tracked brand (the project's or a competitor's) stands in one answer. */
export interface AiAnswerMention {
  name: string;
  domain: string;
  /** true for the project's own brand. */
  brand: boolean;
  /** 1-based rank among the tracked brands mentioned, in order of first mention. */
  position: number;
  /** An annotation or source URL of the answer is on the domain. */
  cited: boolean;
}

/**
 * One engine's answer to one prompt on one UTC scan date (natural key: project_id +
 * scan_date + engine + prompt): the latest scans' answers with the figures read from them.
 * A retry of the date asks only the prompts without an `answered` row (no double spend).
 */
@Entity({ name: 'ai_visibility_answers' })
@Unique('ai_visibility_answers_natural_key', ['projectId', 'scanDate', 'engine', 'prompt'])
@Check('ai_visibility_answers_status_check', `status IN ('answered', 'failed')`)
@Check('ai_visibility_answers_cost_check', 'cost_usd >= 0')
export class AiVisibilityAnswerEntity {
  @PrimaryGeneratedColumn() id: number;
  @ForeignKey(() => AccountEntity, {
    name: 'ai_visibility_answers_account_id_fkey',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;
  @ForeignKey(() => AiVisibilityProjectEntity, {
    name: 'ai_visibility_answers_project_id_fkey',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'project_id', type: 'integer' })
  projectId: number;
  @Column({ name: 'scan_date', type: 'date' }) scanDate: string;
  @Column({ type: 'text' }) engine: string;
  @Column({ type: 'text' }) prompt: string;
  @Column({ type: 'text' }) status: 'answered' | 'failed';
  /** The answer's text (null when the prompt failed). */
  @Column({ type: 'text', nullable: true }) answer: string | null;
  /** The answer's annotation and source URLs, in their order, distinct. */
  @Column({ name: 'cited_urls', type: 'text', array: true, default: () => "'{}'" })
  citedUrls: string[];
  @Column({ type: 'jsonb', default: () => "'[]'" }) mentions: AiAnswerMention[];
  /** Mean sentiment (-1..1) of the sentences mentioning the brand; null when none. */
  @Column({ type: 'double precision', nullable: true }) sentiment: number | null;
  /** USD the provider charged for this prompt, all attempts (numeric(12,6): a string). */
  @Column({ name: 'cost_usd', type: 'numeric', precision: 12, scale: 6, default: 0 })
  costUsd: string;
  /** The provider's status code and message of a failed prompt. */
  @Column({ type: 'text', nullable: true }) error: string | null;
  @Column({ name: 'asked_at', type: 'timestamptz', default: () => 'now()' }) askedAt: Date;
}
