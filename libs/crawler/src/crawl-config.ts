import type { AddressPolicy } from './address-guard';
import { CrawlError } from './crawl-error';
import type { AuditOptions } from './types';
import { normalizeUrl } from './url-normalize';

export const DEFAULTS = {
  concurrency: 4,
  politenessDelayMs: 250,
  requestTimeoutMs: 10_000,
  maxBodyBytes: 2 * 1024 * 1024,
  timeLimitMs: 240_000,
  slowResponseMs: 3_000,
  largePageBytes: 1024 * 1024,
  maxUrlsPerPattern: 30,
  maxQueryVariants: 25,
  maxUrlLength: 1024,
} as const;

export interface ResolvedConfig {
  startUrl: string;
  maxPages: number;
  maxDepth: number;
  userAgent: string;
  allowPrivateNetworks: boolean;
  concurrency: number;
  politenessDelayMs: number;
  requestTimeoutMs: number;
  maxBodyBytes: number;
  timeLimitMs: number;
  slowResponseMs: number;
  largePageBytes: number;
  maxUrlsPerPattern: number;
  maxQueryVariants: number;
  maxUrlLength: number;
  signal?: AbortSignal;
  onProgress?: AuditOptions['onProgress'];
  extraAllowedAddress?: AddressPolicy;
  tlsCa?: string;
}

function int(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min || v > max)
    throw new RangeError(`${name} must be an integer in ${min}..${max}, got ${String(value)}`);
  return v;
}

/** Validates options (programming errors → RangeError/TypeError; a bad start URL → CrawlError INVALID_URL). */
export function resolveConfig(o: AuditOptions): ResolvedConfig {
  const startUrl =
    typeof o.startUrl === 'string' && /^https?:\/\//i.test(o.startUrl.trim())
      ? normalizeUrl(o.startUrl)
      : null;
  if (!startUrl)
    throw new CrawlError(
      'INVALID_URL',
      `start URL must be an absolute http(s) URL: ${String(o.startUrl)}`,
    );
  if (typeof o.userAgent !== 'string' || o.userAgent.trim() === '')
    throw new TypeError('userAgent is required');
  return {
    startUrl,
    maxPages: int('maxPages', o.maxPages, 100, 1, 1_000_000),
    maxDepth: int('maxDepth', o.maxDepth, 3, 0, 5),
    userAgent: o.userAgent.trim(),
    allowPrivateNetworks: o.allowPrivateNetworks === true,
    concurrency: int('concurrency', o.concurrency, DEFAULTS.concurrency, 1, 64),
    politenessDelayMs: int(
      'politenessDelayMs',
      o.politenessDelayMs,
      DEFAULTS.politenessDelayMs,
      0,
      60_000,
    ),
    requestTimeoutMs: int(
      'requestTimeoutMs',
      o.requestTimeoutMs,
      DEFAULTS.requestTimeoutMs,
      1,
      600_000,
    ),
    maxBodyBytes: int(
      'maxBodyBytes',
      o.maxBodyBytes,
      DEFAULTS.maxBodyBytes,
      1024,
      256 * 1024 * 1024,
    ),
    timeLimitMs: int('timeLimitMs', o.timeLimitMs, DEFAULTS.timeLimitMs, 1, 24 * 3_600_000),
    slowResponseMs: int('slowResponseMs', o.slowResponseMs, DEFAULTS.slowResponseMs, 1, 600_000),
    largePageBytes: int(
      'largePageBytes',
      o.largePageBytes,
      DEFAULTS.largePageBytes,
      1,
      1024 * 1024 * 1024,
    ),
    maxUrlsPerPattern: int(
      'maxUrlsPerPattern',
      o.maxUrlsPerPattern,
      DEFAULTS.maxUrlsPerPattern,
      1,
      1_000_000,
    ),
    maxQueryVariants: int(
      'maxQueryVariants',
      o.maxQueryVariants,
      DEFAULTS.maxQueryVariants,
      1,
      1_000_000,
    ),
    maxUrlLength: int('maxUrlLength', o.maxUrlLength, DEFAULTS.maxUrlLength, 64, 65_536),
    signal: o.signal,
    onProgress: o.onProgress,
    extraAllowedAddress: o.extraAllowedAddress,
    tlsCa: o.tlsCa,
  };
}
