import { z } from 'zod';
import { bool, int, url } from './env-values';

/** Rank collection by the worker (docs/rank-collection.md). */
export const rankCollectionEnv = z.object({
  RANK_COLLECTION_ENABLED: bool('RANK_COLLECTION_ENABLED', true),
  RANK_CHECK_INTERVAL_SECONDS: int(1, 86_400, 600),
  RANK_RESULTS_POLL_SECONDS: int(1, 3_600, 60),
  RANK_CHECK_DEPTH: int(10, 700, 100),
  RANK_POSTBACK_BASE_URL: url(['http:', 'https:']),
  RANK_POSTBACK_SECRET: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : v))
    .pipe(
      z
        .string()
        .min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 32`)')
        .optional(),
    ),
});
type RankCollectionEnv = z.infer<typeof rankCollectionEnv>;

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
    /** Postbacks (docs/rank-collection.md, "Postbacks"). */
    postback: {
      /**
       * RANK_POSTBACK_BASE_URL: the API's address as the provider reaches it; set, the worker
       * posts every task with `postback_url` (postbacks on); unset, tasks are collected through
       * tasks_ready and task_get only.
       */
      baseUrl: string | undefined;
      /**
       * RANK_POSTBACK_SECRET: the key of the per-task tokens in postback URLs (never logged);
       * the API's receiver answers 404 without it.
       */
      secret: string | undefined;
    };
  };
}

export function rankCollectionConfig(e: RankCollectionEnv): RankCollectionConfig {
  return {
    rankCollection: {
      enabled: e.RANK_COLLECTION_ENABLED,
      checkIntervalSeconds: e.RANK_CHECK_INTERVAL_SECONDS,
      resultsPollSeconds: e.RANK_RESULTS_POLL_SECONDS,
      checkDepth: e.RANK_CHECK_DEPTH,
      postback: { baseUrl: e.RANK_POSTBACK_BASE_URL, secret: e.RANK_POSTBACK_SECRET },
    },
  };
}

/**
 * Postbacks need the secret their URLs are signed with, and in production an https address
 * (the provider POSTs SERPs, and the URL carries the task's token).
 */
export function checkRankCollection(
  e: RankCollectionEnv & { NODE_ENV?: string },
  ctx: z.RefinementCtx,
): void {
  if (!e.RANK_POSTBACK_BASE_URL) return;
  if (!e.RANK_POSTBACK_SECRET) {
    ctx.addIssue({
      code: 'custom',
      path: ['RANK_POSTBACK_SECRET'],
      message: 'RANK_POSTBACK_BASE_URL needs RANK_POSTBACK_SECRET (at least 32 characters)',
    });
  }
  if (e.NODE_ENV === 'production' && new URL(e.RANK_POSTBACK_BASE_URL).protocol !== 'https:') {
    ctx.addIssue({
      code: 'custom',
      path: ['RANK_POSTBACK_BASE_URL'],
      message: 'must start with https:// in production (NODE_ENV=production)',
    });
  }
}
