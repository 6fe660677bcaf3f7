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

/** A rank-tracking project (natural key: account_id + domain). Schema: migration 1763800000000. */
@Entity({ name: 'rank_projects' })
@Unique('rank_projects_natural_key', ['accountId', 'domain'])
@Check('rank_projects_match_check', `match IN ('domain', 'exact_host')`)
export class RankProjectEntity {
  @PrimaryGeneratedColumn() id: number;
  @ForeignKey(() => AccountEntity, { name: 'rank_projects_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;
  @Column({ type: 'text' }) domain: string;
  @Column({ type: 'text' }) name: string;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' }) updatedAt: Date;
  /**
   * The worker checks the project's active and pending keywords once per UTC day
   * (docs/rank-collection.md; migration 1765300000000). Admin-ingested projects: false unless
   * their body says true.
   */
  @Column({ type: 'boolean', default: false }) tracking: boolean;
  /**
   * How the domain matches a result's host: `domain` (itself and its subdomains) or
   * `exact_host` (itself only); migration 1765400000000, read by the worker's matching.
   */
  @Column({ type: 'text', default: 'domain' }) match: 'domain' | 'exact_host';
  /** Its members of a GET /rank/keywords entry as JSON text (rank_projects_render_json trigger, migration 1764700000000). */
  @Column({ name: 'json_members', type: 'text', select: false, insert: false, update: false })
  jsonMembers: string;
}

/** A tracked keyword (natural key: project + keyword + country + language + device). */
@Entity({ name: 'tracked_keywords' })
@Unique('tracked_keywords_natural_key', ['projectId', 'keyword', 'country', 'language', 'device'])
// GET /rank/keywords (all projects, or one project) in id order.
@Index('tracked_keywords_account_idx', ['accountId', 'projectId', 'id'])
export class TrackedKeywordEntity {
  @PrimaryGeneratedColumn() id: number;
  @ForeignKey(() => AccountEntity, {
    name: 'tracked_keywords_account_id_fkey',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;
  @ForeignKey(() => RankProjectEntity, {
    name: 'tracked_keywords_project_id_fkey',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'project_id', type: 'integer' })
  projectId: number;
  @Column({ type: 'text' }) keyword: string;
  @Column({ type: 'text' }) country: string;
  @Column({ type: 'text' }) language: string;
  @Column({ type: 'text' }) device: string;
  @Column({ type: 'text', default: 'active' }) status: string;
  @Column({ type: 'integer', nullable: true }) difficulty: number | null;
  @Column({ name: 'search_volume', type: 'integer', nullable: true }) searchVolume: number | null;
  /** numeric(12,2): read as a string by the driver. */
  @Column({ type: 'numeric', precision: 12, scale: 2, nullable: true }) cpc: string | null;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' }) updatedAt: Date;
  /** When the worker last fetched difficulty, volume and cpc (every 30 days; migration 1765300000000). */
  @Column({ name: 'metrics_refreshed_at', type: 'timestamptz', nullable: true })
  metricsRefreshedAt: Date | null;
  // The keyword's newest check by date (whatever its date) and the position of the check
  // before it, kept by the checks ingestion (RankRepository.storeChecks; migration
  // 1764500000000). All null until the first check. GET /rank/keywords reads these and looks
  // the checks up only for rows whose stored latest is after "today".
  @Column({ name: 'latest_check_date', type: 'date', nullable: true })
  latestCheckDate: string | null;
  @Column({ name: 'latest_position', type: 'integer', nullable: true })
  latestPosition: number | null;
  @Column({ name: 'previous_position', type: 'integer', nullable: true })
  previousPosition: number | null;
  @Column({ name: 'latest_landing_page', type: 'text', nullable: true })
  latestLandingPage: string | null;
  @Column({ name: 'latest_gsc_clicks', type: 'integer', nullable: true })
  latestGscClicks: number | null;
  @Column({ name: 'latest_gsc_impressions', type: 'integer', nullable: true })
  latestGscImpressions: number | null;
  @Column({ name: 'latest_gsc_ctr', type: 'double precision', nullable: true })
  latestGscCtr: number | null;
  @Column({ name: 'latest_local_pack', type: 'boolean', nullable: true })
  latestLocalPack: boolean | null;
  @Column({ name: 'latest_featured_snippet', type: 'boolean', nullable: true })
  latestFeaturedSnippet: boolean | null;
  @Column({ name: 'latest_ai_overview', type: 'boolean', nullable: true })
  latestAiOverview: boolean | null;
  // The keyword's members of the GET /rank/keywords answer as JSON text (keyword_id … status
  // and last_checked … ai_overview), rendered from this row by the BEFORE INSERT OR UPDATE
  // trigger tracked_keywords_render_json (migration 1764700000000): never written by TypeORM.
  @Column({ name: 'json_head', type: 'text', select: false, insert: false, update: false })
  jsonHead: string;
  @Column({ name: 'json_latest', type: 'text', select: false, insert: false, update: false })
  jsonLatest: string;
}

/**
 * One check of a keyword on one date; position null = not ranked. The primary key
 * (keyword_id, check_date) serves "latest two checks" and the history window.
 */
@Entity({ name: 'rank_checks' })
@Check('rank_checks_position_check', 'position IS NULL OR position >= 1')
export class RankCheckEntity {
  @ForeignKey(() => TrackedKeywordEntity, {
    name: 'rank_checks_keyword_id_fkey',
    onDelete: 'CASCADE',
  })
  @PrimaryColumn({ name: 'keyword_id', type: 'integer' })
  keywordId: number;
  @PrimaryColumn({ name: 'check_date', type: 'date' }) checkDate: string;
  @ForeignKey(() => AccountEntity, { name: 'rank_checks_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;
  @Column({ type: 'integer', nullable: true }) position: number | null;
  @Column({ name: 'landing_page', type: 'text', nullable: true }) landingPage: string | null;
  @Column({ name: 'gsc_clicks', type: 'integer', nullable: true }) gscClicks: number | null;
  @Column({ name: 'gsc_impressions', type: 'integer', nullable: true }) gscImpressions:
    number | null;
  @Column({ name: 'gsc_ctr', type: 'double precision', nullable: true }) gscCtr: number | null;
  @Column({ name: 'gsc_average_position', type: 'double precision', nullable: true })
  gscAveragePosition: number | null;
  @Column({ name: 'featured_snippet', type: 'boolean', default: false }) featuredSnippet: boolean;
  @Column({ name: 'ai_overview', type: 'boolean', default: false }) aiOverview: boolean;
  @Column({ name: 'people_also_ask', type: 'boolean', default: false }) peopleAlsoAsk: boolean;
  @Column({ name: 'local_pack', type: 'boolean', default: false }) localPack: boolean;
  @Column({ type: 'boolean', default: false }) images: boolean;
  @Column({ type: 'boolean', default: false }) videos: boolean;
  @Column({ type: 'boolean', default: false }) shopping: boolean;
  @Column({ name: 'knowledge_graph', type: 'boolean', default: false }) knowledgeGraph: boolean;
  @Column({ type: 'boolean', default: false }) sitelinks: boolean;
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' }) updatedAt: Date;
}

/** The SERP-feature boolean columns of rank_checks, in column order. */
export const SERP_FEATURES = [
  'featured_snippet',
  'ai_overview',
  'people_also_ask',
  'local_pack',
  'images',
  'videos',
  'shopping',
  'knowledge_graph',
  'sitelinks',
] as const;
export type SerpFeature = (typeof SERP_FEATURES)[number];

/**
 * The version of an account's rank answers: bumped once by each transaction that writes its
 * tracked keywords or projects (deferred triggers; migration 1765100000000). No row: never
 * written since.
 */
@Entity({ name: 'rank_versions' })
export class RankVersionEntity {
  @ForeignKey(() => AccountEntity, { name: 'rank_versions_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;
  /** bigint: read as a string by the driver. */
  @Column({ type: 'bigint' }) version: string;
  /** The 64-bit id of the transaction that bumped it last (one bump per transaction). */
  @Column({ name: 'bumped_by', type: 'bigint' }) bumpedBy: string;
}
