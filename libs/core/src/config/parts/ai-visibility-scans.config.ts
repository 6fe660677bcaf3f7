import { z } from 'zod';
import { bool, int } from './env-values';

/** The AI-visibility scans by the worker (docs/ai-visibility-scans.md). */
export const aiVisibilityScansEnv = z.object({
  AI_VISIBILITY_SCANS_ENABLED: bool('AI_VISIBILITY_SCANS_ENABLED', true),
  AI_VISIBILITY_SCAN_INTERVAL_SECONDS: int(10, 86_400, 3_600),
  AI_VISIBILITY_SCAN_TICK_SECONDS: int(1, 3_600, 60),
  AI_ENGINE_CONCURRENCY: int(1, 30, 10),
  AI_ENGINE_TIMEOUT_MS: int(1_000, 600_000, 130_000),
});

export interface AiVisibilityScansConfig {
  /** The AI-visibility scans by the worker (docs/ai-visibility-scans.md). */
  aiVisibilityScans: {
    /** AI_VISIBILITY_SCANS_ENABLED: whether this worker schedules and runs the scans. */
    enabled: boolean;
    /** AI_VISIBILITY_SCAN_INTERVAL_SECONDS: a scan with failed prompts asks them again after this. */
    intervalSeconds: number;
    /** AI_VISIBILITY_SCAN_TICK_SECONDS: how often the worker looks for due projects. */
    tickSeconds: number;
    /** AI_ENGINE_CONCURRENCY: LLM Responses calls in flight per engine and process (DataForSEO allows 30 per account). */
    engineConcurrency: number;
    /** AI_ENGINE_TIMEOUT_MS: one LLM Responses call (live tasks run up to 120 s upstream). */
    engineTimeoutMs: number;
  };
}

export function aiVisibilityScansConfig(
  e: z.infer<typeof aiVisibilityScansEnv>,
): AiVisibilityScansConfig {
  return {
    aiVisibilityScans: {
      enabled: e.AI_VISIBILITY_SCANS_ENABLED,
      intervalSeconds: e.AI_VISIBILITY_SCAN_INTERVAL_SECONDS,
      tickSeconds: e.AI_VISIBILITY_SCAN_TICK_SECONDS,
      engineConcurrency: e.AI_ENGINE_CONCURRENCY,
      engineTimeoutMs: e.AI_ENGINE_TIMEOUT_MS,
    },
  };
}
