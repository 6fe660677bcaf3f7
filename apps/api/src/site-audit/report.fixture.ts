import type { AuditEntity, AuditPageEntity } from '@app/database';
import type { AuditReport } from '@app/site-audit';

const AUDIT_ID = 'aud_AAAAAAAAAAAAAAAAAAAAAA';
const AT = '2026-11-21T10:01:00Z';

/**
 * A stored audit with one page, for the report's unit tests: plain defaults, with the given
 * audit and page members put in (test code only: *.fixture.ts is left out of the build).
 */
export function auditReport(
  audit: Partial<AuditEntity> = {},
  page: Partial<AuditPageEntity> = {},
): AuditReport {
  return { audit: storedAudit(audit), pages: [storedPage(page)] };
}

/** The audit row: one page crawled, one critical issue. */
function storedAudit(audit: Partial<AuditEntity>): AuditEntity {
  const at = new Date(AT);
  return {
    id: AUDIT_ID,
    jobId: 'job_AAAAAAAAAAAAAAAAAAAAAA',
    accountId: 1,
    startUrl: 'http://127.0.0.1:8080/',
    domain: 'example.test',
    maxPages: 10,
    maxDepth: 3,
    pagesCrawled: 1,
    totalScore: 72.456,
    geoScore: 40,
    issuesCritical: 1,
    issuesWarning: 0,
    issuesNotice: 0,
    issuesTotal: 1,
    ruleSummary: [],
    geoChecks: [],
    truncated: false,
    truncatedReason: null,
    startedAt: at,
    finishedAt: at,
    createdAt: at,
    ...audit,
  };
}

/** The start page: 200, indexable, no issues. */
function storedPage(page: Partial<AuditPageEntity>): AuditPageEntity {
  return {
    auditId: AUDIT_ID,
    position: 0,
    url: 'http://127.0.0.1:8080/',
    finalUrl: 'http://127.0.0.1:8080/',
    status: 200,
    depth: 0,
    title: 'Home',
    metaDescription: null,
    h1Count: 1,
    wordCount: 12,
    responseMs: 5,
    bytes: 300,
    canonical: null,
    noindex: false,
    issues: [],
    ...page,
  };
}
