import * as ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { int, url } from './env-values';

/**
 * TRUST_PROXY: which proxies' X-Forwarded-For the client address (per-IP throttles, logs)
 * is read from, in Express's own forms: unset or `false` (the socket's address), a hop count
 * (1-10), or a comma-separated list of addresses, CIDR ranges and the names `loopback`,
 * `linklocal`, `uniquelocal`. `true` (trust every hop, so any client could choose its
 * address) is refused.
 */
const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const trustProxy = z
  .string()
  .optional()
  .transform((v, ctx): false | number | string[] => {
    const value = (v ?? '').trim();
    if (value === '' || value.toLowerCase() === 'false') return false;
    if (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 10) return Number(value);
    const entries = value.split(',').map((e) => e.trim());
    const bad = entries.filter((e) => !TRUST_PROXY_NAMES.has(e) && !isAddress(e) && !isCidr(e));
    if (bad.length === 0 && entries.length > 0) return entries;
    ctx.addIssue({
      code: 'custom',
      message:
        'must be false, a hop count from 1 to 10, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal, uniquelocal (true is not accepted: any client could then choose its address)',
    });
    return z.NEVER;
  });

/** A dotted-quad IPv4 or an IPv6 address (not the legacy short IPv4 forms). */
function isAddress(value: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(value) || ipaddr.IPv6.isValid(value);
}

function isCidr(value: string): boolean {
  const [address] = value.split('/');
  if (!isAddress(address)) return false;
  try {
    ipaddr.parseCIDR(value);
    return true;
  } catch {
    return false;
  }
}

/** The API's HTTP server: its port, public address, proxies and timeouts. */
export const httpEnv = z.object({
  PORT: int(1, 65535, 3000),
  PUBLIC_BASE_URL: url(['http:', 'https:']),
  TRUST_PROXY: trustProxy,
  // ---- timeouts (docs/reliability.md, "Timeouts") ----
  HTTP_HEADERS_TIMEOUT_MS: int(1_000, 300_000, 10_000),
  HTTP_REQUEST_TIMEOUT_MS: int(1_000, 600_000, 30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int(1_000, 600_000, 5_000),
});
type HttpEnv = z.infer<typeof httpEnv>;

export interface HttpConfig {
  port: number;
  publicBaseUrl: string;
  /** TRUST_PROXY, as Express's `trust proxy` setting takes it (false: the socket's address). */
  trustProxy: false | number | string[];
  /**
   * The API's HTTP server (docs/reliability.md, "Timeouts"): the whole header block within
   * `headersTimeoutMs`, the whole request (headers and body) within `requestTimeoutMs`, an idle
   * keep-alive connection closed after `keepAliveTimeoutMs`.
   */
  httpTimeouts: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
}

export function httpConfig(e: HttpEnv): HttpConfig {
  return {
    port: e.PORT,
    publicBaseUrl: e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`,
    trustProxy: e.TRUST_PROXY,
    httpTimeouts: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
  };
}

export function checkHttp(e: HttpEnv, ctx: z.RefinementCtx): void {
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    ctx.addIssue({
      code: 'custom',
      path: ['HTTP_HEADERS_TIMEOUT_MS'],
      message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
    });
  }
}
