import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A finished site audit (the report page reads it). */
@Entity({ name: 'audits' })
export class AuditEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'job_id', type: 'text' })
  jobId: string;

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
  ruleSummary: unknown[];

  @Column({ name: 'geo_checks', type: 'jsonb' })
  geoChecks: unknown[];

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
