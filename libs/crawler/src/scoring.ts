import { RULES, type PageRecord } from './audit-rules';
import { type RobotsPolicy, robotsAllows } from './robots';
import type { AuditIssue, GeoCheck, PageFinding, RuleSummaryEntry, Severity } from './types';

/** Penalty points per issue on a page (page score = 100 − Σ, floored at 0). */
export const PAGE_PENALTY: Record<Severity, number> = { critical: 20, warning: 6, notice: 1.5 };
/** Penalty points per site-level issue (not tied to a crawled page); notices cost nothing; capped. */
export const SITE_PENALTY: Record<Severity, number> = { critical: 10, warning: 3, notice: 0 };
const SITE_PENALTY_CAP = 40;
/** At most this many URLs are listed per rule in ruleSummary (count is always complete). */
const SUMMARY_URL_LIMIT = 100;

const round1 = (n: number) => Math.round(n * 10) / 10;
const clamp = (n: number) => Math.min(100, Math.max(0, n));

function penalty(issues: AuditIssue[], table: Record<Severity, number>): number {
  return issues.reduce((sum, i) => sum + table[i.severity], 0);
}

/**
 * total_score = mean over crawled pages of max(0, 100 − 20·critical − 6·warning − 1.5·notice)
 *               − min(40, 10·critical + 3·warning of site-level issues), clamped 0-100, 1 decimal.
 * No page crawled → 0.
 */
export function totalScore(pages: PageFinding[], siteIssues: AuditIssue[]): number {
  if (pages.length === 0) return 0;
  const mean =
    pages.reduce((s, p) => s + Math.max(0, 100 - penalty(p.issues, PAGE_PENALTY)), 0) /
    pages.length;
  return clamp(round1(mean - Math.min(SITE_PENALTY_CAP, penalty(siteIssues, SITE_PENALTY))));
}

export function issueCounts(issues: AuditIssue[]) {
  const c = { critical: 0, warning: 0, notice: 0, total: issues.length };
  for (const i of issues) c[i.severity]++;
  return c;
}

const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, warning: 1, notice: 2 };

export function ruleSummary(issues: AuditIssue[]): RuleSummaryEntry[] {
  const byRule = new Map<string, RuleSummaryEntry>();
  for (const i of issues) {
    let e = byRule.get(i.rule);
    if (!e) {
      const meta = (RULES as Record<string, { title: string }>)[i.rule];
      e = {
        rule: i.rule,
        severity: i.severity,
        title: meta ? meta.title : i.rule,
        count: 0,
        urls: [],
      };
      byRule.set(i.rule, e);
    }
    e.count++;
    if (e.urls.length < SUMMARY_URL_LIMIT && !e.urls.includes(i.url)) e.urls.push(i.url);
  }
  return [...byRule.values()].sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      b.count - a.count ||
      a.rule.localeCompare(b.rule),
  );
}

/** AI answer-engine crawlers checked against robots.txt (product tokens). */
export const AI_CRAWLERS = [
  'GPTBot',
  'OAI-SearchBot',
  'ChatGPT-User',
  'ClaudeBot',
  'Claude-SearchBot',
  'PerplexityBot',
  'Google-Extended',
  'Applebot-Extended',
  'CCBot',
  'meta-externalagent',
];

const QUESTION =
  /^(who|what|when|where|why|how|which|can|could|does|do|is|are|should|will|was|were|did)\b/i;

export function isQuestionHeading(text: string): boolean {
  const t = text.trim();
  return t.endsWith('?') || QUESTION.test(t);
}

const CONTENT_DEPTH_WORDS = 300;

interface GeoInput {
  startUrl: string;
  robots: RobotsPolicy | null;
  llmsTxt: { present: boolean; detail: string };
  records: PageRecord[];
}

/** One weighted check: score = min(1, share / target); passed = share ≥ target. */
export function shareCheck(
  check: string,
  weight: number,
  hits: number,
  total: number,
  target: number,
  what: string,
): GeoCheck {
  const share = total === 0 ? 0 : hits / total;
  const score = Math.min(1, share / target);
  return {
    check,
    weight,
    passed: total > 0 && share >= target,
    score: Math.round(score * 1000) / 1000,
    detail: `${hits}/${total} ${what} (target ${Math.round(target * 100)}%)`,
  };
}

/** Pages the content checks judge: analysed, extracted, answered below 300, indexable. */
function judgedPages(records: PageRecord[]): PageRecord[] {
  return records.filter(
    (r) =>
      r.analysed &&
      r.extracted &&
      r.finding.status !== null &&
      r.finding.status < 300 &&
      !r.finding.noindex,
  );
}

/** Share of the AI crawlers robots.txt lets in (none without a robots.txt policy read). */
function aiCrawlersCheck(input: GeoInput): GeoCheck {
  const allowed = input.robots
    ? AI_CRAWLERS.filter((bot) => robotsAllows(input.robots as RobotsPolicy, input.startUrl, bot))
    : [];
  const blocked = AI_CRAWLERS.filter((b) => !allowed.includes(b));
  const ai = shareCheck(
    'ai_crawlers_allowed',
    20,
    allowed.length,
    AI_CRAWLERS.length,
    1,
    'AI crawlers allowed by robots.txt',
  );
  if (blocked.length) ai.detail += `; blocked: ${blocked.join(', ')}`;
  return ai;
}

function llmsTxtCheck(llmsTxt: GeoInput['llmsTxt']): GeoCheck {
  return {
    check: 'llms_txt',
    weight: 10,
    passed: llmsTxt.present,
    score: llmsTxt.present ? 1 : 0,
    detail: llmsTxt.detail,
  };
}

/** One h1 and no skipped heading level. */
function headingOk(r: PageRecord): boolean {
  const hs = r.extracted!.headings;
  if (hs.filter((h) => h.level === 1).length !== 1) return false;
  for (let i = 1; i < hs.length; i++) if (hs[i].level > hs[i - 1].level + 1) return false;
  return true;
}

function hasQuestions(r: PageRecord): boolean {
  return (
    r.extracted!.headings.some((h) => h.level > 1 && isQuestionHeading(h.text)) ||
    r.extracted!.jsonLdTypes.some((t) => t === 'FAQPage' || t === 'QAPage')
  );
}

function hasAuthorAndDate(r: PageRecord): boolean {
  return (
    (r.extracted!.hasAuthorMeta || r.extracted!.jsonLdHasAuthor) &&
    (r.extracted!.hasDateMeta || r.extracted!.jsonLdHasDate)
  );
}

/** A check scored by the share of judged pages that pass `hit` (shareCheck's arguments). */
interface PageShareCheck {
  check: string;
  weight: number;
  target: number;
  what: string;
  hit: (r: PageRecord) => boolean;
}

/** The page-share checks, in the order of the answer. */
const PAGE_SHARE_CHECKS: readonly PageShareCheck[] = [
  {
    check: 'structured_data',
    weight: 15,
    target: 0.5,
    what: 'pages with JSON-LD',
    hit: (r) => r.extracted!.jsonLdTypes.length > 0,
  },
  {
    check: 'heading_structure',
    weight: 10,
    target: 0.8,
    what: 'pages with one h1 and no skipped heading levels',
    hit: headingOk,
  },
  {
    check: 'question_headings_or_faq',
    weight: 10,
    target: 0.2,
    what: 'pages with question headings or FAQPage/QAPage markup',
    hit: hasQuestions,
  },
  {
    check: 'author_and_date',
    weight: 10,
    target: 0.5,
    what: 'pages with author and date metadata',
    hit: hasAuthorAndDate,
  },
  {
    check: 'meta_descriptions',
    weight: 10,
    target: 0.9,
    what: 'pages with a meta description',
    hit: (r) => !!r.finding.metaDescription,
  },
  {
    check: 'content_depth',
    weight: 15,
    target: 0.5,
    what: `pages with ≥ ${CONTENT_DEPTH_WORDS} words`,
    hit: (r) => r.finding.wordCount >= CONTENT_DEPTH_WORDS,
  },
];

/** GEO (AI answer-engine readiness) checks; geo_score = Σ weight·score (weights sum to 100). */
export function geoChecks(input: GeoInput): GeoCheck[] {
  const pages = judgedPages(input.records);
  return [
    aiCrawlersCheck(input),
    llmsTxtCheck(input.llmsTxt),
    ...PAGE_SHARE_CHECKS.map((c) =>
      shareCheck(c.check, c.weight, pages.filter(c.hit).length, pages.length, c.target, c.what),
    ),
  ];
}

export function geoScore(checks: GeoCheck[]): number {
  return clamp(round1(checks.reduce((s, c) => s + c.weight * (c.score ?? (c.passed ? 1 : 0)), 0)));
}
