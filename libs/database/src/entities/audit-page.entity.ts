import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { AuditEntity } from './audit.entity';

/** One issue found on a page, as stored (jsonb). */
interface StoredPageIssue {
  rule: string;
  severity: string;
  url: string;
  detail?: string;
}

/**
 * Per-page findings of an audit, in crawl order. Schema: migration 1764000000000; statements
 * in libs/site-audit (AuditReportRepository).
 */
@Entity({ name: 'audit_pages' })
export class AuditPageEntity {
  @ForeignKey(() => AuditEntity, { name: 'audit_pages_audit_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'audit_id', type: 'text' })
  auditId: string;

  @PrimaryColumn({ type: 'integer' })
  position: number;

  @Column({ type: 'text' })
  url: string;

  @Column({ name: 'final_url', type: 'text' })
  finalUrl: string;

  @Column({ type: 'integer', nullable: true })
  status: number | null;

  @Column({ type: 'integer' })
  depth: number;

  @Column({ type: 'text', nullable: true })
  title: string | null;

  @Column({ name: 'meta_description', type: 'text', nullable: true })
  metaDescription: string | null;

  @Column({ name: 'h1_count', type: 'integer' })
  h1Count: number;

  @Column({ name: 'word_count', type: 'integer' })
  wordCount: number;

  @Column({ name: 'response_ms', type: 'integer' })
  responseMs: number;

  @Column({ type: 'integer' })
  bytes: number;

  @Column({ type: 'text', nullable: true })
  canonical: string | null;

  @Column({ type: 'boolean' })
  noindex: boolean;

  @Column({ type: 'jsonb' })
  issues: StoredPageIssue[];
}
