import { z } from 'zod';
import { bool, int } from './env-values';

/** The Search Console sync by the worker (docs/gsc-sync.md). */
export const gscSyncEnv = z.object({
  GSC_SYNC_ENABLED: bool('GSC_SYNC_ENABLED', true),
  GSC_SYNC_INTERVAL_SECONDS: int(60, 86_400, 3_600),
  GSC_SYNC_TICK_SECONDS: int(1, 3_600, 15),
  GSC_BACKFILL_MONTHS: int(0, 16, 16),
  GSC_FINAL_DAY_LAG_DAYS: int(0, 10, 2),
  GSC_ROW_LIMIT: int(1, 25_000, 25_000),
  GSC_QPM_PER_SITE: int(1, 1_200, 600),
  GSC_QPM_PER_USER: int(1, 1_200, 600),
});

export interface GscSyncConfig {
  /** The Search Console sync by the worker (docs/gsc-sync.md). */
  gscSync: {
    /** GSC_SYNC_ENABLED: whether this worker schedules and runs the sync. */
    enabled: boolean;
    /** GSC_SYNC_INTERVAL_SECONDS: how often a synced property pulls its newest final day and the 3 before it. */
    intervalSeconds: number;
    /** GSC_SYNC_TICK_SECONDS: how often the worker looks for due properties (backfills go on at this pace). */
    tickSeconds: number;
    /** GSC_BACKFILL_MONTHS: how far back a new property is backfilled (Google keeps 16 months). */
    backfillMonths: number;
    /** GSC_FINAL_DAY_LAG_DAYS: the newest final day is today (Pacific time) minus this many days. */
    finalDayLagDays: number;
    /** GSC_ROW_LIMIT: rows asked per searchAnalytics.query page (Google's most: 25,000). */
    rowLimit: number;
    /** GSC_QPM_PER_SITE: Search Console requests per site and 60-second window. */
    qpmPerSite: number;
    /** GSC_QPM_PER_USER: Search Console requests per Google user and 60-second window. */
    qpmPerUser: number;
  };
}

export function gscSyncConfig(e: z.infer<typeof gscSyncEnv>): GscSyncConfig {
  return {
    gscSync: {
      enabled: e.GSC_SYNC_ENABLED,
      intervalSeconds: e.GSC_SYNC_INTERVAL_SECONDS,
      tickSeconds: e.GSC_SYNC_TICK_SECONDS,
      backfillMonths: e.GSC_BACKFILL_MONTHS,
      finalDayLagDays: e.GSC_FINAL_DAY_LAG_DAYS,
      rowLimit: e.GSC_ROW_LIMIT,
      qpmPerSite: e.GSC_QPM_PER_SITE,
      qpmPerUser: e.GSC_QPM_PER_USER,
    },
  };
}
