import robotsParser from 'robots-parser';
import { CrawlError } from './crawl-error';
import type { HttpFetcher } from './http-fetcher';
import { normalizeUrl } from './url-normalize';

type Robot = ReturnType<typeof robotsParser>;

/** RFC 9309 outcome of fetching /robots.txt for one origin. */
export interface RobotsPolicy {
  origin: string;
  /** 'parsed' (2xx), 'allow_all' (4xx except 429, or no robots.txt), 'disallow_all' (5xx, 429, unreachable). */
  mode: 'parsed' | 'allow_all' | 'disallow_all';
  status: number | null;
  detail?: string;
  robot: Robot | null;
  /** Network error when the file could not be fetched at all. */
  error?: CrawlError;
  /** The error happened on origin/robots.txt itself (not on a redirect target). */
  firstHop?: boolean;
}

/** RFC 9309 §2.5: parse at least 500 KiB. */
const ROBOTS_MAX_BYTES = 512 * 1024;
const MAX_REDIRECTS = 5;

/** The robots.txt product token of a User-Agent string: 'SeoApiAuditBot/1.0 (+url)' → 'SeoApiAuditBot'. */
export function productToken(userAgent: string): string {
  return (userAgent.trim().split(/[\s/]/)[0] || userAgent).trim();
}

/**
 * Fetches origin/robots.txt, following up to 5 redirects (across hosts too, per RFC 9309; every
 * hop passes the SSRF guard). 2xx → rules; 4xx → allow all; 5xx / 429 / unreachable → disallow all.
 */
export async function fetchRobots(
  origin: string,
  get: (url: string) => ReturnType<HttpFetcher['get']>,
): Promise<RobotsPolicy> {
  let url = `${origin}/robots.txt`;
  for (let hop = 0; ; hop++) {
    let res;
    try {
      res = await get(url);
    } catch (err) {
      const e = err as CrawlError;
      if (e.code === 'CANCELLED') throw e;
      return unreachable(origin, e, hop === 0);
    }
    if (!res.location) return policyOfAnswer(origin, res.status, res.text);
    const next = normalizeUrl(res.location, url);
    if (!next || hop >= MAX_REDIRECTS) {
      // Too many redirects: RFC 9309 says treat as unavailable (4xx) → allow all.
      return {
        origin,
        mode: 'allow_all',
        status: res.status,
        robot: null,
        detail: 'robots.txt redirect limit reached',
      };
    }
    url = next;
  }
}

/** robots.txt could not be fetched at all: disallow all, with the network error. */
function unreachable(origin: string, e: CrawlError, firstHop: boolean): RobotsPolicy {
  return {
    origin,
    mode: 'disallow_all',
    status: null,
    robot: null,
    detail: `${e.code}: ${e.message}`,
    error: e,
    firstHop,
  };
}

/** The policy an answer that is not a redirect gives (RFC 9309 §2.3.1). */
function policyOfAnswer(origin: string, status: number, text: string | null): RobotsPolicy {
  if (status >= 200 && status < 300) {
    return {
      origin,
      mode: 'parsed',
      status,
      robot: robotsParser(`${origin}/robots.txt`, text ?? ''),
    };
  }
  if (status === 429 || status >= 500) {
    return {
      origin,
      mode: 'disallow_all',
      status,
      robot: null,
      detail: `robots.txt answered HTTP ${status}`,
    };
  }
  return { origin, mode: 'allow_all', status, robot: null };
}

export const ROBOTS_BODY_LIMIT = ROBOTS_MAX_BYTES;

/** Whether `url` (on policy.origin) may be fetched by `token`. */
export function robotsAllows(policy: RobotsPolicy, url: string, token: string): boolean {
  if (policy.mode === 'allow_all') return true;
  if (policy.mode === 'disallow_all') return false;
  const path = new URL(url);
  // robots.txt matching is per origin; the parser was created for policy.origin.
  const verdict = policy.robot?.isAllowed(`${policy.origin}${path.pathname}${path.search}`, token);
  return verdict !== false;
}
