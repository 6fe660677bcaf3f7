import { z } from 'zod';

/** Rank collection by the worker (docs/rank-collection.md). */
export interface RankCollectionConfig {
  /** RANK_CHECK_INTERVAL_SECONDS: how often the worker posts the keywords due today. */
  checkIntervalSeconds: number;
  /** RANK_RESULTS_POLL_SECONDS: how often it collects finished tasks (tasks_ready, task_get). */
  resultsPollSeconds: number;
  /** RANK_CHECK_DEPTH: results asked per SERP (the position is null beyond it). */
  checkDepth: number;
}

const int = (min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v.trim());
      if (!/^\d+$/.test(v.trim()) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be an integer from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

/** The variables, spread into the environment schema of app-config.ts. */
export const RANK_COLLECTION_ENV = {
  RANK_CHECK_INTERVAL_SECONDS: int(1, 86_400, 600),
  RANK_RESULTS_POLL_SECONDS: int(1, 3_600, 60),
  RANK_CHECK_DEPTH: int(10, 700, 100),
};

type RankCollectionEnv = { [K in keyof typeof RANK_COLLECTION_ENV]: number };

/** The settings from the parsed environment. */
export function rankCollectionConfig(e: RankCollectionEnv): RankCollectionConfig {
  return {
    checkIntervalSeconds: e.RANK_CHECK_INTERVAL_SECONDS,
    resultsPollSeconds: e.RANK_RESULTS_POLL_SECONDS,
    checkDepth: e.RANK_CHECK_DEPTH,
  };
}
