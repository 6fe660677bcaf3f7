import { recordTimestamp } from '@app/core';
import type { AuditReport } from '@app/site-audit';
import { LinkView, httpLink } from '../pages/links';

/**
 * The view model of an audit report (views/report.hbs). Every value from a crawled site (URLs,
 * titles, descriptions, details) is a plain string here: the template escapes it, and a URL
 * is a link only when it is http(s) (httpLink).
 */
export const REPORT_PAGE = 'site-audit/views/report';
export const REPORT_NOT_FOUND_PAGE = 'site-audit/views/report-not-found';

const SEVERITY_ORDER: Record<string, number> = { critical: 0, warning: 1, notice: 2 };

interface SeverityView {
  /** As stored (shown). */
  label: string;
  /** critical, warning or notice (the badge's colour). */
  kind: string;
}

export interface ReportPage {
  title: string;
  styles: string[];
  domain: string;
  start: LinkView;
  pagesCrawled: number;
  maxPages: number;
  maxDepth: number;
  finished: string;
  /** Why the crawl stopped early, or null. */
  truncated: string | null;
  cards: Array<{ value: string; label: string }>;
  rules: Array<{
    severity: SeverityView;
    title: string;
    rule: string;
    count: number;
    urls: LinkView[];
  }>;
  geoChecks: Array<{ check: string; passed: boolean; weight: number; detail: string }>;
  pages: Array<{
    link: LinkView;
    redirectedTo: LinkView | null;
    title: string | null;
    description: string | null;
    status: string;
    depth: number;
    h1Count: number;
    wordCount: number;
    responseMs: number;
    bytes: number;
    noindex: boolean;
    canonical: LinkView | null;
    issues: Array<{ severity: SeverityView; rule: string; detail: string | null }>;
  }>;
}

export interface ReportNotFoundPage {
  title: string;
  styles: string[];
}

const severity = (s: string): SeverityView => ({
  label: s,
  kind: s in SEVERITY_ORDER ? s : 'notice',
});

const bySeverity = (a: { severity: string }, b: { severity: string }): number =>
  (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3);

const score = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(1));

export function reportPage({ audit: a, pages }: AuditReport): ReportPage {
  return {
    title: `Site audit: ${a.domain}`,
    styles: ['report.css'],
    domain: a.domain,
    start: httpLink(a.startUrl),
    pagesCrawled: a.pagesCrawled,
    maxPages: a.maxPages,
    maxDepth: a.maxDepth,
    finished: `${recordTimestamp(new Date(a.finishedAt))} UTC`,
    truncated: a.truncated
      ? a.truncatedReason === 'time_limit'
        ? 'time limit reached'
        : 'page limit reached'
      : null,
    cards: [
      { value: score(a.totalScore), label: 'Total score' },
      { value: score(a.geoScore), label: 'GEO score' },
      { value: String(a.issuesCritical), label: 'Critical issues' },
      { value: String(a.issuesWarning), label: 'Warnings' },
      { value: String(a.issuesNotice), label: 'Notices' },
      { value: String(a.issuesTotal), label: 'Issues in total' },
    ],
    rules: (a.ruleSummary ?? [])
      .slice()
      .sort((x, y) => bySeverity(x, y) || y.count - x.count)
      .map((r) => ({
        severity: severity(r.severity),
        title: r.title || r.rule,
        rule: r.rule,
        count: r.count,
        urls: (r.urls ?? []).map((u) => httpLink(u)),
      })),
    geoChecks: (a.geoChecks ?? []).map((c) => ({
      check: c.check,
      passed: c.passed,
      weight: c.weight,
      detail: c.detail ?? '',
    })),
    pages: pages.map((p) => ({
      link: httpLink(p.url),
      redirectedTo: p.finalUrl && p.finalUrl !== p.url ? httpLink(p.finalUrl) : null,
      title: p.title || null,
      description: p.metaDescription || null,
      status: p.status === null ? 'no response' : String(p.status),
      depth: p.depth,
      h1Count: p.h1Count,
      wordCount: p.wordCount,
      responseMs: p.responseMs,
      bytes: p.bytes,
      noindex: p.noindex,
      canonical: p.canonical ? httpLink(p.canonical) : null,
      issues: (p.issues ?? [])
        .slice()
        .sort(bySeverity)
        .map((i) => ({ severity: severity(i.severity), rule: i.rule, detail: i.detail || null })),
    })),
  };
}

export function reportNotFoundPage(): ReportNotFoundPage {
  return { title: 'Report not found', styles: ['report.css'] };
}
