import { z } from 'zod';
import { bool, int } from './env-values';

/** Rank collection by the worker (docs/rank-collection.md). */
export const rankCollectionEnv = z.object({
  RANK_COLLECTION_ENABLED: bool('RANK_COLLECTION_ENABLED', true),
  RANK_CHECK_INTERVAL_SECONDS: int(1, 86_400, 600),
  RANK_RESULTS_POLL_SECONDS: int(1, 3_600, 60),
  RANK_CHECK_DEPTH: int(10, 700, 100),
});

export interface RankCollectionConfig {
  /** Rank collection by the worker (docs/rank-collection.md). */
  rankCollection: {
    /** RANK_COLLECTION_ENABLED: whether this worker schedules and runs rank collection. */
    enabled: boolean;
    /** RANK_CHECK_INTERVAL_SECONDS: how often the worker posts the keywords due today. */
    checkIntervalSeconds: number;
    /** RANK_RESULTS_POLL_SECONDS: how often it collects finished tasks (tasks_ready, task_get). */
    resultsPollSeconds: number;
    /** RANK_CHECK_DEPTH: results asked per SERP (the position is null beyond it). */
    checkDepth: number;
  };
}

export function rankCollectionConfig(e: z.infer<typeof rankCollectionEnv>): RankCollectionConfig {
  return {
    rankCollection: {
      enabled: e.RANK_COLLECTION_ENABLED,
      checkIntervalSeconds: e.RANK_CHECK_INTERVAL_SECONDS,
      resultsPollSeconds: e.RANK_RESULTS_POLL_SECONDS,
      checkDepth: e.RANK_CHECK_DEPTH,
    },
  };
}
