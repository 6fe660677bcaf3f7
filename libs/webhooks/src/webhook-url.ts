import * as ipaddr from 'ipaddr.js';
import { ApiError, withTimeout } from '@app/core';
import { AddressPolicy, buildAddressPolicy, isCrawlError, resolveAllowed } from '@app/crawler';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Why a string is not an acceptable webhook URL (syntax only), or null. */
export function webhookUrlProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0)
    return 'webhook_url must be a non-empty string';
  if (value.length > MAX_WEBHOOK_URL_LENGTH)
    return `webhook_url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'webhook_url must be an absolute URL, e.g. https://example.com/hooks/seo';
  }
  if (!/^https?:\/\//i.test(value) || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return 'webhook_url must start with https://';
  if (url.username || url.password) return 'webhook_url must not contain a user name or password';
  if (!url.hostname) return 'webhook_url must have a host name';
  return null;
}

function isLoopback(ip: string): boolean {
  try {
    let addr = ipaddr.parse(ip.split('%')[0]);
    if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
      addr = (addr as ipaddr.IPv6).toIPv4Address();
    return addr.range() === 'loopback';
  } catch {
    return false;
  }
}

/**
 * Which addresses a webhook may connect to: the crawler's address guard. Without
 * AUDIT_ALLOW_PRIVATE_NETWORKS only public addresses (and only https, see webhookTargetProblem);
 * with it, https anywhere and plain http to loopback addresses only.
 */
export function webhookAddressPolicy(protocol: string, allowPrivate: boolean): AddressPolicy {
  if (allowPrivate && protocol === 'http:') return (ip) => isLoopback(ip);
  return buildAddressPolicy(allowPrivate);
}

/**
 * Why the webhook URL cannot be used (scheme or address), or null. Resolves the host and
 * checks every address with the crawler's guard; the sender checks again at connect time.
 */
async function webhookTargetProblem(value: string, allowPrivate: boolean): Promise<string | null> {
  const syntax = webhookUrlProblem(value);
  if (syntax) return syntax;
  const url = new URL(value);
  if (url.protocol === 'http:' && !allowPrivate) return 'webhook_url must start with https://';
  const policy = webhookAddressPolicy(url.protocol, allowPrivate);
  try {
    // IP literals (any spelling) are checked directly, names on every resolved address.
    await resolveAllowed(url.hostname, policy);
    return null;
  } catch (err) {
    if (isCrawlError(err) && err.code === 'PRIVATE_ADDRESS') {
      return url.protocol === 'http:'
        ? 'webhook_url may use http:// only for a loopback address; use https://'
        : 'webhook_url must point to a public host: private, loopback, link-local and reserved addresses are refused';
    }
    if (isCrawlError(err) && err.code === 'INVALID_URL')
      return 'webhook_url has an invalid host name';
    if (isCrawlError(err)) return `webhook_url host ${url.hostname} could not be resolved`;
    throw err;
  }
}

/** Longest wait for the webhook host's lookup before giving up. */
const HOST_CHECK_TIMEOUT_MS = 5000;
const HOST_LOOKUP_TIMED_OUT = `host lookup timed out after ${HOST_CHECK_TIMEOUT_MS} ms`;

/**
 * 422 VALIDATION_ERROR on `webhook_url` unless it is https to a host whose every address is
 * public (with `allowPrivate`: also http to loopback). Used by POST /site-audit and the usage
 * alert settings; the sender checks the address again at connect time.
 */
export async function assertWebhookTarget(value: string, allowPrivate: boolean): Promise<void> {
  let problem: string | null;
  try {
    problem = await withTimeout(
      webhookTargetProblem(value, allowPrivate),
      HOST_CHECK_TIMEOUT_MS,
      HOST_LOOKUP_TIMED_OUT,
    );
  } catch (err) {
    if (err instanceof Error && err.message === HOST_LOOKUP_TIMED_OUT)
      problem = 'webhook_url host could not be resolved';
    else throw err;
  }
  if (problem) throw ApiError.validation('webhook_url', problem);
}
