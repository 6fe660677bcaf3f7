export * from './types';
export { CrawlError, isCrawlError } from './crawl-error';
export type { CrawlErrorCode } from './crawl-error';
export { isPublicAddress, assertPublicHost, canonicalHostname } from './address-guard';
export type { AddressPolicy } from './address-guard';
export { buildAddressPolicy, createGuardedLookup, resolveAllowed } from './address-guard';
export { HttpFetcher } from './http-fetcher';
export type { FetchResult } from './http-fetcher';
export { normalizeUrl, siteKey, isSameSite } from './url-normalize';
export { runAudit } from './crawler';
export { RULES, TITLE_MAX_CHARS, THIN_CONTENT_WORDS, issue } from './audit-rules';
export type { RuleId } from './audit-rules';
export { DEFAULTS as AUDIT_DEFAULTS } from './crawl-config';
export {
  AI_CRAWLERS,
  PAGE_PENALTY,
  SITE_PENALTY,
  geoChecks,
  geoScore,
  issueCounts,
  ruleSummary,
  shareCheck,
  totalScore,
} from './scoring';
export { loadHtmlparser2 } from './html-extract';
