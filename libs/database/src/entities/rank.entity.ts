import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** A rank-tracking project (natural key: account_id + domain). Schema: migration 1763800000000. */
@Entity({ name: 'rank_projects' })
export class RankProjectEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ name: 'account_id', type: 'integer' }) accountId: number;
  @Column({ type: 'text' }) domain: string;
  @Column({ type: 'text' }) name: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/** A tracked keyword (natural key: project + keyword + country + language + device). */
@Entity({ name: 'tracked_keywords' })
export class TrackedKeywordEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ name: 'account_id', type: 'integer' }) accountId: number;
  @Column({ name: 'project_id', type: 'integer' }) projectId: number;
  @Column({ type: 'text' }) keyword: string;
  @Column({ type: 'text' }) country: string;
  @Column({ type: 'text' }) language: string;
  @Column({ type: 'text' }) device: string;
  @Column({ type: 'text' }) status: string;
  @Column({ type: 'integer', nullable: true }) difficulty: number | null;
  @Column({ name: 'search_volume', type: 'integer', nullable: true }) searchVolume: number | null;
  @Column({ type: 'numeric', precision: 12, scale: 2, nullable: true }) cpc: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/** One check of a keyword on one date; position null = not ranked. */
@Entity({ name: 'rank_checks' })
export class RankCheckEntity {
  @PrimaryColumn({ name: 'keyword_id', type: 'integer' }) keywordId: number;
  @PrimaryColumn({ name: 'check_date', type: 'date' }) checkDate: string;
  @Column({ name: 'account_id', type: 'integer' }) accountId: number;
  @Column({ type: 'integer', nullable: true }) position: number | null;
  @Column({ name: 'landing_page', type: 'text', nullable: true }) landingPage: string | null;
  @Column({ name: 'gsc_clicks', type: 'integer', nullable: true }) gscClicks: number | null;
  @Column({ name: 'gsc_impressions', type: 'integer', nullable: true }) gscImpressions:
    number | null;
  @Column({ name: 'gsc_ctr', type: 'double precision', nullable: true }) gscCtr: number | null;
  @Column({ name: 'gsc_average_position', type: 'double precision', nullable: true })
  gscAveragePosition: number | null;
  @Column({ name: 'featured_snippet', type: 'boolean' }) featuredSnippet: boolean;
  @Column({ name: 'ai_overview', type: 'boolean' }) aiOverview: boolean;
  @Column({ name: 'people_also_ask', type: 'boolean' }) peopleAlsoAsk: boolean;
  @Column({ name: 'local_pack', type: 'boolean' }) localPack: boolean;
  @Column({ type: 'boolean' }) images: boolean;
  @Column({ type: 'boolean' }) videos: boolean;
  @Column({ type: 'boolean' }) shopping: boolean;
  @Column({ name: 'knowledge_graph', type: 'boolean' }) knowledgeGraph: boolean;
  @Column({ type: 'boolean' }) sitelinks: boolean;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
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
