import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { AccountEntity } from './account.entity';
import { JobEntity } from './job.entity';

/** One entry of an audit's rule summary, as stored (jsonb). */
interface StoredRuleSummary {
  rule: string;
  severity: string;
  title: string;
  count: number;
  urls: string[];
}

/** One GEO check of an audit, as stored (jsonb). */
interface StoredGeoCheck {
  check: string;
  passed: boolean;
  weight: number;
  detail?: string;
}

/**
 * A finished site audit (the report page reads it). Schema: migration 1764000000000;
 * statements in libs/site-audit (AuditReportRepository).
 */
@Entity({ name: 'audits' })
@Check('audits_id_check', `id ~ '^aud_[0-9A-Za-z]{22}$'`)
@Check('audits_pages_crawled_check', 'pages_crawled >= 0')
@Unique('audits_job_id_key', ['jobId'])
// An account's audits, newest first: (account_id, created_at DESC); TypeORM cannot express DESC.
@Index('audits_account_idx', { synchronize: false })
export class AuditEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @ForeignKey(() => JobEntity, { name: 'audits_job_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'job_id', type: 'text' })
  jobId: string;

  @ForeignKey(() => AccountEntity, { name: 'audits_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'start_url', type: 'text' })
  startUrl: string;

  @Column({ type: 'text' })
  domain: string;

  @Column({ name: 'max_pages', type: 'integer' })
  maxPages: number;

  @Column({ name: 'max_depth', type: 'integer' })
  maxDepth: number;

  @Column({ name: 'pages_crawled', type: 'integer' })
  pagesCrawled: number;

  @Column({ name: 'total_score', type: 'double precision' })
  totalScore: number;

  @Column({ name: 'geo_score', type: 'double precision' })
  geoScore: number;

  @Column({ name: 'issues_critical', type: 'integer' })
  issuesCritical: number;

  @Column({ name: 'issues_warning', type: 'integer' })
  issuesWarning: number;

  @Column({ name: 'issues_notice', type: 'integer' })
  issuesNotice: number;

  @Column({ name: 'issues_total', type: 'integer' })
  issuesTotal: number;

  @Column({ name: 'rule_summary', type: 'jsonb' })
  ruleSummary: StoredRuleSummary[];

  @Column({ name: 'geo_checks', type: 'jsonb' })
  geoChecks: StoredGeoCheck[];

  @Column({ type: 'boolean' })
  truncated: boolean;

  @Column({ name: 'truncated_reason', type: 'text', nullable: true })
  truncatedReason: string | null;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;

  @Column({ name: 'finished_at', type: 'timestamptz' })
  finishedAt: Date;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
