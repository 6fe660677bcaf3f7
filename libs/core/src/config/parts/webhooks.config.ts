import { z } from 'zod';
import { int } from './env-values';

/** Delays before webhook retries 1-7: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (docs/webhooks.md). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

const retrySchedule = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS;
    const parts = v.split(',').map((p) => p.trim());
    if (
      parts.length > 20 ||
      parts.some((p) => !/^\d{1,9}$/.test(p) || Number(p) < 1 || Number(p) > 86_400_000)
    ) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be 1-20 comma-separated delays in milliseconds, each from 1 to 86400000 (e.g. 5000,300000)',
      });
      return z.NEVER;
    }
    return parts.map(Number);
  });

/** Webhook deliveries (docs/webhooks.md). */
export const webhooksEnv = z.object({
  WEBHOOK_RETRY_SCHEDULE_MS: retrySchedule,
  WEBHOOK_TIMEOUT_MS: int(100, 60_000, 10_000),
  WEBHOOK_CONCURRENCY: int(1, 256, 10),
});

export interface WebhooksConfig {
  /** Site-audit completion webhooks (docs/webhooks.md). */
  webhooks: {
    /** WEBHOOK_RETRY_SCHEDULE_MS: delay before each retry; after the last one the delivery fails. */
    retryScheduleMs: readonly number[];
    /** WEBHOOK_TIMEOUT_MS: one attempt (connect, send, answer) gives up after this. */
    timeoutMs: number;
    /** WEBHOOK_CONCURRENCY: deliveries one worker process sends at the same time. */
    concurrency: number;
  };
}

export function webhooksConfig(e: z.infer<typeof webhooksEnv>): WebhooksConfig {
  return {
    webhooks: {
      retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      concurrency: e.WEBHOOK_CONCURRENCY,
    },
  };
}
