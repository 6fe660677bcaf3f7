import { recordTimestamp } from '@app/core';
import type { AuditPageEntity } from '@app/database';
import type { AuditReport } from '@app/site-audit';
import { LinkView, httpLink } from '../pages/links';
import { geoCheckFix, geoCheckTitle, ruleFix, ruleTitle } from './rule-advice';

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

interface ReportPage {
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
    /** One line on how to fix it, for the audit's own rules. */
    fix: string | null;
    count: number;
    urls: LinkView[];
  }>;
  /** The page list as files: JSON and CSV. */
  downloads: { json: string; csv: string };
  geoChecks: Array<{
    check: string;
    title: string;
    fix: string | null;
    passed: boolean;
    weight: number;
    detail: string;
  }>;
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
    /** Whether search engines may index the page, and why not. */
    indexable: { yes: boolean; why: string | null };
    canonical: LinkView | null;
    issues: Array<{ severity: SeverityView; title: string; detail: string | null }>;
  }>;
}

interface ReportNotFoundPage {
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
    cards: scoreCards(a),
    rules: ruleRows(a),
    downloads: {
      json: `/reports/audits/${encodeURIComponent(a.id)}/pages.json`,
      csv: `/reports/audits/${encodeURIComponent(a.id)}/pages.csv`,
    },
    geoChecks: (a.geoChecks ?? []).map((c) => ({
      check: c.check,
      title: geoCheckTitle(c.check),
      fix: c.passed ? null : geoCheckFix(c.check),
      passed: c.passed,
      weight: c.weight,
      detail: c.detail ?? '',
    })),
    pages: pages.map(pageRow),
  };
}

type StoredAudit = AuditReport['audit'];

/** The scores and issue counts at the top of the report. */
function scoreCards(a: StoredAudit): ReportPage['cards'] {
  return [
    { value: score(a.totalScore), label: 'Total score' },
    { value: score(a.geoScore), label: 'GEO score' },
    { value: String(a.issuesCritical), label: 'Critical issues' },
    { value: String(a.issuesWarning), label: 'Warnings' },
    { value: String(a.issuesNotice), label: 'Notices' },
    { value: String(a.issuesTotal), label: 'Issues in total' },
  ];
}

/** The rules found, most severe first, then the most frequent. */
function ruleRows(a: StoredAudit): ReportPage['rules'] {
  return (a.ruleSummary ?? [])
    .slice()
    .sort((x, y) => bySeverity(x, y) || y.count - x.count)
    .map((r) => ({
      severity: severity(r.severity),
      title: ruleTitle(r.rule) === r.rule && r.title ? r.title : ruleTitle(r.rule),
      fix: ruleFix(r.rule),
      count: r.count,
      urls: (r.urls ?? []).map((u) => httpLink(u)),
    }));
}

/** One crawled page of the page table, its issues most severe first. */
function pageRow(p: AuditPageEntity): ReportPage['pages'][number] {
  return {
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
    indexable: indexability(p),
    canonical: p.canonical ? httpLink(p.canonical) : null,
    issues: (p.issues ?? [])
      .slice()
      .sort(bySeverity)
      .map((i) => ({
        severity: severity(i.severity),
        title: ruleTitle(i.rule),
        detail: i.detail || null,
      })),
  };
}

/** The URL without its fragment, for comparing a canonical with the page. */
function sameDocument(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    x.hash = '';
    y.hash = '';
    return x.href === y.href;
  } catch {
    return a === b;
  }
}

/**
 * Whether search engines may index a crawled page: it answered 2xx, has no noindex, and its
 * canonical (if any) is the page itself. The first reason that rules it out is given.
 */
export function indexability(
  p: Pick<AuditPageEntity, 'url' | 'finalUrl' | 'status' | 'noindex' | 'canonical'>,
): { yes: boolean; why: string | null } {
  if (p.status === null) return { yes: false, why: 'no response' };
  if (p.status < 200 || p.status > 299) return { yes: false, why: `HTTP ${p.status}` };
  if (p.noindex) return { yes: false, why: 'noindex' };
  if (p.canonical && !sameDocument(p.canonical, p.finalUrl || p.url)) {
    return { yes: false, why: 'canonical points to another URL' };
  }
  return { yes: true, why: null };
}

export function reportNotFoundPage(): ReportNotFoundPage {
  return { title: 'Report not found', styles: ['report.css'] };
}
