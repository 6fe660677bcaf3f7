import { z } from 'zod';
import { int } from './env-values';

/** Your-data: Search Console partitions and retention (docs/your-data.md). */
export const yourDataEnv = z.object({
  GSC_MAINTENANCE_INTERVAL_MS: int(1000, 86_400_000, 21_600_000),
  GSC_RETENTION_MONTHS: int(1, 120, 16),
  GSC_PARTITIONS_AHEAD: int(0, 24, 2),
});

export interface YourDataConfig {
  /** Search Console fact partitions and retention, run by the worker (docs/your-data.md, "Retention"). */
  gscMaintenance: {
    /** GSC_MAINTENANCE_INTERVAL_MS: how often the worker creates partitions ahead and applies retention. */
    intervalMs: number;
    /** GSC_RETENTION_MONTHS: months kept before the current one (Search Console keeps 16). */
    retentionMonths: number;
    /** GSC_PARTITIONS_AHEAD: months after the current one whose partitions are created ahead. */
    partitionsAhead: number;
  };
}

export function yourDataConfig(e: z.infer<typeof yourDataEnv>): YourDataConfig {
  return {
    gscMaintenance: {
      intervalMs: e.GSC_MAINTENANCE_INTERVAL_MS,
      retentionMonths: e.GSC_RETENTION_MONTHS,
      partitionsAhead: e.GSC_PARTITIONS_AHEAD,
    },
  };
}
