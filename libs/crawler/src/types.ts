import type { AddressPolicy } from './address-guard';

export type Severity = 'critical' | 'warning' | 'notice';

export interface AuditOptions {
  /** Absolute http(s) URL. */
  startUrl: string;
  /** ≥ 1. */
  maxPages: number;
  /** 1-5. The start page is depth 0, links from it depth 1, ... */
  maxDepth: number;
  /** Sent as User-Agent; also the robots.txt product token (e.g. 'SeoApiAuditBot/1.0' → SeoApiAuditBot). */
  userAgent: string;
  /** false in production: refuse private, loopback, link-local, ... addresses at connect time. */
  allowPrivateNetworks: boolean;
  /** Parallel requests, default 4. */
  concurrency?: number;
  /** Per-host delay between request starts, default 250; 0 disables. */
  politenessDelayMs?: number;
  /** Per request (connect + headers + body), default 10000. */
  requestTimeoutMs?: number;
  /** Default 2 MiB (decompressed); larger bodies are cut, parsed as far as read, and flagged. */
  maxBodyBytes?: number;
  /** Whole-crawl limit, default 240000; on expiry the crawl stops and reports what was crawled. */
  timeLimitMs?: number;
  /** Threshold of the slow_response rule, default 3000. */
  slowResponseMs?: number;
  /** Cancels the crawl (runAudit rejects with CrawlError('CANCELLED')). */
  signal?: AbortSignal;
  /** Called after each page is committed. Errors thrown here abort the crawl. */
  onProgress?: (pagesDone: number, pagesPlanned: number) => void | Promise<void>;

  // ---- optional additions (not part of the original contract) ----
  /** Threshold of the large_page rule in bytes of HTML, default 1 MiB. */
  largePageBytes?: number;
  /** Trap guard: distinct URLs allowed per date-shaped (calendar) path pattern, default 30. */
  maxUrlsPerPattern?: number;
  /** Trap guard: distinct query strings allowed per path, default 25. */
  maxQueryVariants?: number;
  /** Trap guard: longest URL accepted, default 1024 characters. */
  maxUrlLength?: number;
  /** broken_resource: distinct images/scripts/stylesheets checked per crawl, default 200 (0 = off). */
  maxResourceChecks?: number;
  /**
   * TEST HOOK: when allowPrivateNetworks is false, additionally allow these non-public addresses
   * (e.g. exactly the fixture server's 127.0.0.1). Never set in production.
   */
  extraAllowedAddress?: AddressPolicy;
  /** TEST HOOK: PEM CA certificate(s) trusted for https (self-signed fixture). Replaces the default CA list. */
  tlsCa?: string;
}

export interface AuditIssue {
  rule: string;
  severity: Severity;
  url: string;
  detail?: string;
}

export interface PageFinding {
  url: string;
  finalUrl: string;
  status: number | null;
  depth: number;
  title: string | null;
  metaDescription: string | null;
  h1Count: number;
  wordCount: number;
  responseMs: number;
  bytes: number;
  canonical: string | null;
  noindex: boolean;
  issues: AuditIssue[];
  // ---- optional additions ----
  /** Content type of the final response (without parameters). */
  contentType?: string | null;
  /** Number of redirects followed. */
  redirects?: number;
  /** Body cut at maxBodyBytes. */
  truncated?: boolean;
  /** JSON-LD @type values found on the page. */
  structuredDataTypes?: string[];
}

export interface GeoCheck {
  check: string;
  passed: boolean;
  weight: number;
  detail?: string;
  /** Optional addition: share of the weight earned, 0-1. */
  score?: number;
}

export interface RuleSummaryEntry {
  rule: string;
  severity: Severity;
  title: string;
  count: number;
  urls: string[];
}

export interface AuditResult {
  startUrl: string;
  domain: string;
  pagesCrawled: number;
  pages: PageFinding[];
  issues: AuditIssue[];
  issueCounts: { critical: number; warning: number; notice: number; total: number };
  ruleSummary: RuleSummaryEntry[];
  totalScore: number;
  geoScore: number;
  geo: { checks: GeoCheck[] };
  truncated: boolean;
  startedAt: Date;
  finishedAt: Date;
  // ---- optional additions ----
  /** Why the crawl stopped early when truncated: 'max_pages' | 'time_limit'. */
  truncatedReason?: 'max_pages' | 'time_limit' | null;
}
