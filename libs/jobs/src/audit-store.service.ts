import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuditResult, PageFinding } from '@app/crawler';
import { SiteAuditJobData } from './job-record';
import { cleanNullable, cleanText, int, num, safeJson } from './sanitize';

export interface AuditReportRow {
  id: string;
  start_url: string;
  domain: string;
  max_pages: number;
  max_depth: number;
  pages_crawled: number;
  total_score: number;
  geo_score: number;
  issues_critical: number;
  issues_warning: number;
  issues_notice: number;
  issues_total: number;
  rule_summary: Array<{
    rule: string;
    severity: string;
    title: string;
    count: number;
    urls: string[];
  }>;
  geo_checks: Array<{ check: string; passed: boolean; weight: number; detail?: string }>;
  truncated: boolean;
  truncated_reason: string | null;
  started_at: Date;
  finished_at: Date;
}

export interface AuditPageRow {
  position: number;
  url: string;
  final_url: string;
  status: number | null;
  depth: number;
  title: string | null;
  meta_description: string | null;
  h1_count: number;
  word_count: number;
  response_ms: number;
  bytes: number;
  canonical: string | null;
  noindex: boolean;
  issues: Array<{ rule: string; severity: string; url: string; detail?: string }>;
}

export interface AuditReport {
  audit: AuditReportRow;
  pages: AuditPageRow[];
}

export interface CompletingJob {
  jobId: string;
  accountId: number;
  maxPages: number;
  depth: number;
}

function pageRow(p: PageFinding, position: number) {
  return {
    position,
    url: cleanText(p.url),
    final_url: cleanText(p.finalUrl ?? p.url),
    status: p.status === null || p.status === undefined ? null : int(p.status),
    depth: int(p.depth),
    title: cleanNullable(p.title, 1000),
    meta_description: cleanNullable(p.metaDescription, 2000),
    h1_count: int(p.h1Count),
    word_count: int(p.wordCount),
    response_ms: int(p.responseMs),
    bytes: int(p.bytes),
    canonical: cleanNullable(p.canonical),
    noindex: p.noindex === true,
    issues: p.issues ?? [],
  };
}

/** Stored audits and their per-page findings: written by the worker, read by the report page. */
@Injectable()
export class AuditStoreService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * running → complete, in one transaction with the audit, its pages and the page-budget
   * reconciliation (the ledger row drops to the pages actually crawled). Null, and nothing
   * stored, when the job is no longer running (swept or ended by another worker).
   */
  async completeWithAudit(
    job: CompletingJob,
    auditId: string,
    result: AuditResult,
    now: Date,
  ): Promise<SiteAuditJobData | null> {
    const counts = result.issueCounts;
    const data: SiteAuditJobData = {
      audit_id: auditId,
      domain: cleanText(result.domain, 255),
      pages_crawled: int(result.pagesCrawled),
      total_score: num(result.totalScore),
      geo_score: num(result.geoScore),
      issues: {
        critical: int(counts.critical),
        warning: int(counts.warning),
        total: int(counts.total),
      },
    };
    return this.db.transaction(async (m) => {
      const moved: unknown[] = await m.query(
        `WITH u AS (
           UPDATE jobs SET status = 'complete', progress = 100, data = $2::jsonb, completed_at = $3, updated_at = $3
           WHERE id = $1 AND status = 'running' RETURNING id
         ) SELECT id FROM u`,
        [job.jobId, safeJson(data), now],
      );
      if (!moved.length) return null;
      await m.query(
        `INSERT INTO audits (id, job_id, account_id, start_url, domain, max_pages, max_depth, pages_crawled,
           total_score, geo_score, issues_critical, issues_warning, issues_notice, issues_total,
           rule_summary, geo_checks, truncated, truncated_reason, started_at, finished_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16::jsonb, $17, $18, $19, $20, $21)`,
        [
          auditId,
          job.jobId,
          job.accountId,
          cleanText(result.startUrl),
          data.domain,
          job.maxPages,
          job.depth,
          data.pages_crawled,
          data.total_score,
          data.geo_score,
          data.issues.critical,
          data.issues.warning,
          int(counts.notice),
          data.issues.total,
          safeJson(result.ruleSummary ?? []),
          safeJson(result.geo?.checks ?? []),
          result.truncated === true,
          cleanNullable(result.truncatedReason ?? null, 64),
          result.startedAt,
          result.finishedAt,
          now,
        ],
      );
      if (result.pages.length) {
        await m.query(
          `INSERT INTO audit_pages (audit_id, position, url, final_url, status, depth, title, meta_description,
             h1_count, word_count, response_ms, bytes, canonical, noindex, issues)
           SELECT $1, p.position, p.url, p.final_url, p.status, p.depth, p.title, p.meta_description,
             p.h1_count, p.word_count, p.response_ms, p.bytes, p.canonical, p.noindex, p.issues
           FROM jsonb_to_recordset($2::jsonb) AS p(position int, url text, final_url text, status int, depth int,
             title text, meta_description text, h1_count int, word_count int, response_ms int, bytes int,
             canonical text, noindex boolean, issues jsonb)`,
          [auditId, safeJson(result.pages.map(pageRow))],
        );
      }
      await m.query(
        `UPDATE site_audit_page_budget SET pages = LEAST(pages, $2), reconciled_at = $3 WHERE job_id = $1`,
        [job.jobId, data.pages_crawled, now],
      );
      return data;
    });
  }

  /** An audit with its pages in crawl order, or null. */
  async findReport(auditId: string): Promise<AuditReport | null> {
    const audits: AuditReportRow[] = await this.db.query(
      `SELECT id, start_url, domain, max_pages, max_depth, pages_crawled, total_score, geo_score,
         issues_critical, issues_warning, issues_notice, issues_total, rule_summary, geo_checks,
         truncated, truncated_reason, started_at, finished_at
       FROM audits WHERE id = $1`,
      [auditId],
    );
    if (!audits.length) return null;
    const pages: AuditPageRow[] = await this.db.query(
      `SELECT position, url, final_url, status, depth, title, meta_description, h1_count, word_count,
         response_ms, bytes, canonical, noindex, issues
       FROM audit_pages WHERE audit_id = $1 ORDER BY position`,
      [auditId],
    );
    return { audit: audits[0], pages };
  }
}
