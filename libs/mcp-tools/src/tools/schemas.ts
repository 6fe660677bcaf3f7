import { z } from 'zod';
import { PLANS } from '@app/plans';

/** Shared argument schemas; ranges mirror the REST API so bad values are refused before any call is made. */

export const PG_INT_MAX = 2_147_483_647;

/**
 * The largest per-crawl page cap of any plan (the plan catalogue): a larger max_pages would be
 * capped by the API anyway, so the schema says where the real bound is.
 */
export const MAX_PAGES_PER_CRAWL = Math.max(
  ...Object.values(PLANS).map((plan) => plan.limits.site_audit_pages_per_crawl),
);

/** Keyword-research markets: location_code = 2000 + ISO 3166-1 numeric country code. */
export const LOCATION_CODE_MIN = 2001;
export const LOCATION_CODE_MAX = 2999;

/** Cost notes repeated in the tool descriptions so an assistant can weigh each call. */
export const COST = {
  research:
    'Cost: research call. Draws feature quota or credits (see below) and counts as one API call against the monthly allowance, which refuses it once used up; cached answers use no quota or credits but still count as a call.',
  yourData:
    'Cost: your-data call. Free of feature quota and credits, never refused at the monthly call cap, but still counts as one API call.',
  other:
    'Cost: counts as one API call against the monthly allowance (no feature quota, no credits).',
} as const;

export const id = (what: string) => z.number().int().min(1).max(PG_INT_MAX).describe(what);

/** An optional whole number within [min, max] (page sizes, windows). */
export const boundedInt = (min: number, max: number, what: string) =>
  z.number().int().min(min).max(max).optional().describe(what);

export const plainDate = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in the form YYYY-MM-DD')
    .describe(what);

/**
 * A value the API recognizes from a list but, per the spec, silently replaces by its default
 * when unrecognized: the schema lists the values (anyOf enum) and still lets others through.
 */
export const withFallback = <T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z.union([z.enum(values), z.string().max(64)]).describe(what);

export const LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'ru', 'ja', 'zh'] as const;

/** Job ids are opaque strings such as job_3kTMd92jf8AbQx0PzLw1Rv; the pattern keeps them a single path segment. */
export const jobId = z
  .string()
  .min(1)
  .max(64)
  .regex(
    /^[A-Za-z0-9_-]+$/,
    'must be a job id as returned by start_site_audit, e.g. job_3kTMd92jf8AbQx0PzLw1Rv',
  )
  .describe('The job_id returned by start_site_audit or run_site_audit');

export const siteAuditArgs = {
  url: z
    .string()
    .min(1)
    .max(2048)
    .regex(/^https?:\/\/\S+$/i, 'must be an absolute http:// or https:// URL')
    .describe('Absolute http(s) URL of the site to crawl, e.g. https://example.com/'),
  max_pages: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGES_PER_CRAWL)
    .optional()
    .describe(
      `Most pages to crawl, 1-${MAX_PAGES_PER_CRAWL} (default 100); capped by the plan's per-crawl page limit ` +
        `(Pro ${PLANS.pro.limits.site_audit_pages_per_crawl}, Agency ${PLANS.agency.limits.site_audit_pages_per_crawl}) ` +
        'and the remaining rolling 30-day page budget; meta.max_pages shows the value applied',
    ),
  depth: z
    .number()
    .int()
    .min(1)
    .max(5)
    .optional()
    .describe('Link depth to follow from the start page, 1-5 (default 3)'),
};

/** Research tools read but reach an outside provider and spend quota. */
export const READ_ONLY_EXTERNAL = {
  readOnlyHint: true,
  destructiveHint: false,
  openWorldHint: true,
} as const;
