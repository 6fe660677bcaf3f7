import type { AuthContext } from '@app/accounts';
import type { UsageLine } from '@app/billing';
import type { CostGroupName } from './decorators';

/** The prefix of the public routes, which the spec's endpoint names leave out. */
const API_PREFIX = '/api/v1';

const names = new Map<string, string>();

/**
 * The endpoint as the spec writes it, from the method and the matched Express route:
 * `GET /api/v1/jobs/:job_id` → `GET /jobs/{job_id}`. Computed once per route.
 */
export function endpointName(method: string, routePath: string | undefined): string {
  const cacheKey = `${method} ${routePath}`;
  let name = names.get(cacheKey);
  if (name === undefined) {
    const path = (routePath ?? '?').startsWith(API_PREFIX)
      ? (routePath ?? '').slice(API_PREFIX.length) || '/'
      : (routePath ?? '?');
    name = `${method} ${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`.slice(0, 200);
    if (names.size < 1_000) names.set(cacheKey, name);
  }
  return name;
}

/** Where a call goes in the usage history (its day is the meter statement's). */
export function usageLine(auth: AuthContext, endpoint: string, group: CostGroupName): UsageLine {
  return {
    keyId: auth.keyId,
    grantId: auth.grantId,
    endpoint,
    group,
  };
}

/**
 * Whether a count of `used` calls of `limit` reaches at least one of the thresholds (percent).
 * Pure arithmetic, no I/O: accounts below every threshold pay nothing more.
 */
export function reachesThreshold(
  thresholds: readonly number[],
  used: number,
  limit: number,
): boolean {
  for (const t of thresholds) if (used * 100 >= t * limit) return true;
  return false;
}

/**
 * What the metering guard calls after each counted call of an account with a monthly limit
 * (`used` of `limit` in the meter's month `periodStart`, PostgreSQL's): the usage feature's
 * alert check, given to GatewayModule.register by the app (absent, no alerts are sent). It
 * answers undefined when nothing is due, decided synchronously from its per-process cache of
 * the account's thresholds, so the common call costs no promise, no SQL, no Redis; else a
 * promise that records the alerts reached. Should recording fail, the worker's sweep derives
 * the alert from the meter row (docs/usage-history.md).
 */
export abstract class UsageAlertsHook {
  abstract counted(
    auth: AuthContext,
    used: number,
    limit: number,
    periodStart: string,
  ): Promise<void> | undefined;
}
