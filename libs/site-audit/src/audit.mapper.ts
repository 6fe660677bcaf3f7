import type { AuditResult, PageFinding } from '@app/crawler';
import type { AuditEntity, AuditPageEntity } from '@app/database';
import type { SiteAuditJobData } from './job-record.schema';
import { cleanJson, cleanNullable, cleanText, int, num } from './sanitize';

/** The job a finished crawl completes. */
export interface CompletingJob {
  jobId: string;
  accountId: number;
  maxPages: number;
  depth: number;
}

/**
 * Everything below turns a crawl result into rows: text from crawled sites is cleaned for
 * PostgreSQL (sanitize.ts) and numbers made valid column values.
 */

/** The data a complete job keeps (the job record shows it, with report_url). */
export function toJobData(auditId: string, result: AuditResult): SiteAuditJobData {
  const counts = result.issueCounts;
  return {
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
}

export function toAuditEntity(
  job: CompletingJob,
  data: SiteAuditJobData,
  result: AuditResult,
  now: Date,
): AuditEntity {
  return {
    id: data.audit_id,
    jobId: job.jobId,
    accountId: job.accountId,
    startUrl: cleanText(result.startUrl),
    domain: data.domain,
    maxPages: job.maxPages,
    maxDepth: job.depth,
    pagesCrawled: data.pages_crawled,
    totalScore: data.total_score,
    geoScore: data.geo_score,
    issuesCritical: data.issues.critical,
    issuesWarning: data.issues.warning,
    issuesNotice: int(result.issueCounts.notice),
    issuesTotal: data.issues.total,
    ruleSummary: cleanJson(result.ruleSummary ?? []),
    geoChecks: cleanJson(result.geo?.checks ?? []),
    truncated: result.truncated === true,
    truncatedReason: cleanNullable(result.truncatedReason ?? null, 64),
    startedAt: result.startedAt,
    finishedAt: result.finishedAt,
    createdAt: now,
  };
}

export function toAuditPage(auditId: string, p: PageFinding, position: number): AuditPageEntity {
  return {
    auditId,
    position,
    url: cleanText(p.url),
    finalUrl: cleanText(p.finalUrl ?? p.url),
    status: p.status === null || p.status === undefined ? null : int(p.status),
    depth: int(p.depth),
    title: cleanNullable(p.title, 1000),
    metaDescription: cleanNullable(p.metaDescription, 2000),
    h1Count: int(p.h1Count),
    wordCount: int(p.wordCount),
    responseMs: int(p.responseMs),
    bytes: int(p.bytes),
    canonical: cleanNullable(p.canonical),
    noindex: p.noindex === true,
    issues: cleanJson(p.issues ?? []),
  };
}
