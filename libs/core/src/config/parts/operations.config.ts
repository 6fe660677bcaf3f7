import { z } from 'zod';
import { bool, int, token } from './env-values';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Operations (docs/operations.md): environment, logs, metrics, the queue dashboard. */
export const operationsEnv = z.object({
  NODE_ENV: z.string().optional(),
  LOG_LEVEL: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? 'info' : v.toLowerCase()))
    .pipe(z.enum(LOG_LEVELS)),
  METRICS_TOKEN: token(),
  WORKER_METRICS_PORT: int(0, 65535, 0),
  QUEUE_DASHBOARD_READ_ONLY: bool('QUEUE_DASHBOARD_READ_ONLY', true),
  LOG_FORMAT: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? 'json' : v.trim().toLowerCase()))
    .pipe(z.enum(['json', 'pretty'])),
});
type OperationsEnv = z.infer<typeof operationsEnv>;

export interface OperationsConfig {
  /** NODE_ENV is `production`. */
  production: boolean;
  logLevel: (typeof LOG_LEVELS)[number];
  /** LOG_FORMAT: json (default; one JSON object per line) or pretty (readable one-line logs, `npm start`). */
  logFormat: 'json' | 'pretty';
  /** METRICS_TOKEN: a second bearer token accepted by GET /metrics (besides ADMIN_TOKEN). */
  metricsToken: string | undefined;
  /** WORKER_METRICS_PORT: the worker's /metrics HTTP port; 0 (default) = no metrics server. */
  workerMetricsPort: number;
  /** QUEUE_DASHBOARD_READ_ONLY: /admin/queues shows the queues without retry/remove/clean actions (default true). */
  queueDashboardReadOnly: boolean;
}

export function operationsConfig(e: OperationsEnv): OperationsConfig {
  return {
    production: e.NODE_ENV === 'production',
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    metricsToken: e.METRICS_TOKEN,
    workerMetricsPort: e.WORKER_METRICS_PORT,
    queueDashboardReadOnly: e.QUEUE_DASHBOARD_READ_ONLY,
  };
}
