/** The plans an account can be on: what `accounts.plan` holds (its check constraint lists them). */
export type PlanName = 'free' | 'starter' | 'pro' | 'agency';

/**
 * Every limit an account can have. The names are public (admin `limits`, `usage` and
 * `overrides` use them); never rename one.
 */
export interface Limits {
  /** Monthly API call allowance (UTC calendar month), or 'unlimited'. */
  api_calls_per_month: number | 'unlimited';
  /** Requests per minute, counted per endpoint. */
  requests_per_minute: number;
  /** Monthly feature quota of POST /keyword-research lookups (cache hits are free). */
  keyword_research_per_month: number;
  /** Monthly feature quota of GET /backlinks fetches; past it each fetch costs 1 credit. */
  backlinks_per_month: number;
  /** Site-audit crawls started per calendar month. */
  site_audit_crawls_per_month: number;
  /** Most pages one crawl may fetch. */
  site_audit_pages_per_crawl: number;
  /** Pages crawled over any rolling 30 days. */
  site_audit_rolling_page_budget: number;
  /** Keywords the account tracks at once, all rank projects together (docs/rank-management.md). */
  tracked_keywords: number;
  /** AI-visibility projects the account has at once (docs/ai-visibility-management.md). */
  ai_visibility_projects: number;
  /** Prompts one AI-visibility project holds (docs/ai-visibility-management.md). */
  ai_visibility_prompts_per_project: number;
  /** Search Console properties the account keeps synced (docs/gsc-connect.md). */
  gsc_properties: number;
}

type LimitName = keyof Limits;

const LIMIT_NAMES: readonly LimitName[] = [
  'api_calls_per_month',
  'requests_per_minute',
  'keyword_research_per_month',
  'backlinks_per_month',
  'site_audit_crawls_per_month',
  'site_audit_pages_per_crawl',
  'site_audit_rolling_page_budget',
  'tracked_keywords',
  'ai_visibility_projects',
  'ai_visibility_prompts_per_project',
  'gsc_properties',
];

interface PlanDefinition {
  apiAccess: boolean;
  limits: Limits;
  /**
   * How long a GET /backlinks answer is served from the account's cache (seconds). A plan
   * property, not a limit: it cannot be overridden per account.
   */
  backlinksCacheTtlSeconds: number;
}

/**
 * The one plan table. Monthly calls and per-minute rates are the spec's; feature quotas,
 * crawl counts and page budgets are our choice (the spec leaves them open), documented in
 * the README. Free and starter have no API access; their values apply in the app only.
 */
export const PLANS: Readonly<Record<PlanName, PlanDefinition>> = {
  free: {
    apiAccess: false,
    limits: {
      api_calls_per_month: 0,
      requests_per_minute: 0,
      keyword_research_per_month: 10,
      backlinks_per_month: 3,
      site_audit_crawls_per_month: 1,
      site_audit_pages_per_crawl: 25,
      site_audit_rolling_page_budget: 25,
      tracked_keywords: 0,
      ai_visibility_projects: 0,
      ai_visibility_prompts_per_project: 0,
      gsc_properties: 0,
    },
    backlinksCacheTtlSeconds: 86_400,
  },
  starter: {
    apiAccess: false,
    limits: {
      api_calls_per_month: 0,
      requests_per_minute: 0,
      keyword_research_per_month: 50,
      backlinks_per_month: 10,
      site_audit_crawls_per_month: 4,
      site_audit_pages_per_crawl: 100,
      site_audit_rolling_page_budget: 400,
      tracked_keywords: 0,
      ai_visibility_projects: 0,
      ai_visibility_prompts_per_project: 0,
      gsc_properties: 0,
    },
    backlinksCacheTtlSeconds: 2 * 86_400,
  },
  pro: {
    apiAccess: true,
    limits: {
      api_calls_per_month: 20,
      requests_per_minute: 20,
      keyword_research_per_month: 100,
      backlinks_per_month: 50,
      site_audit_crawls_per_month: 10,
      site_audit_pages_per_crawl: 500,
      site_audit_rolling_page_budget: 5000,
      tracked_keywords: 500,
      ai_visibility_projects: 1,
      ai_visibility_prompts_per_project: 25,
      gsc_properties: 5,
    },
    backlinksCacheTtlSeconds: 2 * 86_400,
  },
  agency: {
    apiAccess: true,
    limits: {
      api_calls_per_month: 100,
      requests_per_minute: 60,
      keyword_research_per_month: 500,
      backlinks_per_month: 250,
      site_audit_crawls_per_month: 50,
      site_audit_pages_per_crawl: 2000,
      site_audit_rolling_page_budget: 25000,
      tracked_keywords: 5000,
      ai_visibility_projects: 10,
      ai_visibility_prompts_per_project: 100,
      gsc_properties: 50,
    },
    backlinksCacheTtlSeconds: 7 * 86_400,
  },
};

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

export type LimitOverrides = Partial<Record<LimitName, number | 'unlimited'>>;

/** The limits in force: the plan's values with the account's overrides applied. */
export function resolveLimits(
  plan: PlanName,
  overrides: LimitOverrides | null | undefined,
): Limits {
  const limits: Limits = { ...PLANS[plan].limits };
  for (const name of LIMIT_NAMES) {
    const value = overrides?.[name];
    if (value === undefined || value === null) continue;
    if (value === 'unlimited') {
      if (name === 'api_calls_per_month') limits.api_calls_per_month = 'unlimited';
      continue;
    }
    (limits as unknown as Record<string, number>)[name] = value;
  }
  return limits;
}

export function hasApiAccess(plan: PlanName): boolean {
  return PLANS[plan].apiAccess;
}
