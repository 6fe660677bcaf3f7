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
  maxResourceChecks: 200,
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
  maxResourceChecks: number;
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

/** The numeric options: [default, least, greatest], checked in this order. */
const NUMERIC_BOUNDS = {
  maxPages: [100, 1, 1_000_000],
  maxDepth: [3, 0, 5],
  concurrency: [DEFAULTS.concurrency, 1, 64],
  politenessDelayMs: [DEFAULTS.politenessDelayMs, 0, 60_000],
  requestTimeoutMs: [DEFAULTS.requestTimeoutMs, 1, 600_000],
  maxBodyBytes: [DEFAULTS.maxBodyBytes, 1024, 256 * 1024 * 1024],
  timeLimitMs: [DEFAULTS.timeLimitMs, 1, 24 * 3_600_000],
  slowResponseMs: [DEFAULTS.slowResponseMs, 1, 600_000],
  largePageBytes: [DEFAULTS.largePageBytes, 1, 1024 * 1024 * 1024],
  maxUrlsPerPattern: [DEFAULTS.maxUrlsPerPattern, 1, 1_000_000],
  maxQueryVariants: [DEFAULTS.maxQueryVariants, 1, 1_000_000],
  maxUrlLength: [DEFAULTS.maxUrlLength, 64, 65_536],
  maxResourceChecks: [DEFAULTS.maxResourceChecks, 0, 10_000],
} as const satisfies Record<string, readonly [number, number, number]>;

type NumericOption = keyof typeof NUMERIC_BOUNDS;

/** Every numeric option, defaulted and range-checked (RangeError naming the first bad one). */
function numericOptions(o: AuditOptions): Record<NumericOption, number> {
  const out = {} as Record<NumericOption, number>;
  for (const name of Object.keys(NUMERIC_BOUNDS) as NumericOption[]) {
    const [fallback, min, max] = NUMERIC_BOUNDS[name];
    out[name] = int(name, o[name], fallback, min, max);
  }
  return out;
}

/** The start URL, normalized; CrawlError INVALID_URL unless it is an absolute http(s) URL. */
function startUrlOf(o: AuditOptions): string {
  const startUrl =
    typeof o.startUrl === 'string' && /^https?:\/\//i.test(o.startUrl.trim())
      ? normalizeUrl(o.startUrl)
      : null;
  if (!startUrl)
    throw new CrawlError(
      'INVALID_URL',
      `start URL must be an absolute http(s) URL: ${String(o.startUrl)}`,
    );
  return startUrl;
}

/** Validates options (programming errors → RangeError/TypeError; a bad start URL → CrawlError INVALID_URL). */
export function resolveConfig(o: AuditOptions): ResolvedConfig {
  const startUrl = startUrlOf(o);
  if (typeof o.userAgent !== 'string' || o.userAgent.trim() === '')
    throw new TypeError('userAgent is required');
  return {
    startUrl,
    ...numericOptions(o),
    userAgent: o.userAgent.trim(),
    allowPrivateNetworks: o.allowPrivateNetworks === true,
    signal: o.signal,
    onProgress: o.onProgress,
    extraAllowedAddress: o.extraAllowedAddress,
    tlsCa: o.tlsCa,
  };
}
