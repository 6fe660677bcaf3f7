import type { AppConfig } from '@app/core';

/**
 * How long one research fetch can take at most: two sequential upstream calls (keyword
 * research with the keyword_overview fallback), each with every attempt timing out, plus
 * the backoff between attempts (base · 2^n + jitter ≤ base · 2^(n+1)).
 */
function maxFetchMs(config: AppConfig): number {
  const { timeoutMs, maxRetries, backoffMs } = config.dataforseo;
  const attempts = maxRetries + 1;
  const backoff = backoffMs * 2 ** (maxRetries + 1);
  return 2 * (attempts * timeoutMs + backoff);
}

/** The in-flight lock outlives the longest fetch (plus slack for the database work). */
export function lockTtlMs(config: AppConfig): number {
  return maxFetchMs(config) + 30_000;
}

/** A reservation still open after this long belongs to a request that died: refund it. */
export function staleReservationMs(config: AppConfig): number {
  return Math.max(10 * 60_000, 2 * lockTtlMs(config));
}
