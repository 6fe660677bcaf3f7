import { z } from 'zod';
import { int, url } from './env-values';

/** PostgreSQL: the primary, the optional read standby, the pool and the statement bounds. */
export const databaseEnv = z.object({
  DATABASE_URL: url(['postgres:', 'postgresql:'], 'postgres://postgres@127.0.0.1:5432/seo_api'),
  DATABASE_READ_URL: url(['postgres:', 'postgresql:']),
  DATABASE_READ_MAX_LAG_MS: int(0, 3_600_000, 5000),
  DB_POOL_SIZE: int(1, 200, 10),
  // ---- dependency outages (docs/reliability.md) ----
  DB_CONNECT_TIMEOUT_MS: int(50, 120_000, 10_000),
  // ---- timeouts (docs/reliability.md, "Timeouts") ----
  DB_STATEMENT_TIMEOUT_MS: int(100, 600_000, 10_000),
  DB_LOCK_TIMEOUT_MS: int(50, 600_000, 3_000),
  DB_BULK_STATEMENT_TIMEOUT_MS: int(1_000, 3_600_000, 120_000),
});
type DatabaseEnv = z.infer<typeof databaseEnv>;

export interface DatabaseConfig {
  databaseUrl: string;
  /**
   * DATABASE_READ_URL / DATABASE_READ_MAX_LAG_MS: a hot standby for the your-data reads, used
   * while it answers and replays within maxLagMs (docs/your-data.md, "Read standby").
   */
  databaseRead: { url: string; maxLagMs: number } | null;
  dbPoolSize: number;
  /**
   * Bound on getting a PostgreSQL connection: connecting, or waiting for a pool slot under a
   * burst (ms). A stopped server refuses at once; this bounds an unreachable one.
   */
  dbConnectTimeoutMs: number;
  /**
   * Bounds of the API's statements (docs/reliability.md, "Timeouts"): `statementTimeoutMs`
   * (DB_STATEMENT_TIMEOUT_MS) and `lockTimeoutMs` (DB_LOCK_TIMEOUT_MS) are session settings
   * of every API connection; `bulkStatementTimeoutMs` (DB_BULK_STATEMENT_TIMEOUT_MS) replaces
   * both inside the admin ingestion transactions (`bulkTransaction`). The worker and the
   * CLIs run without them.
   */
  dbTimeouts: { statementTimeoutMs: number; lockTimeoutMs: number; bulkStatementTimeoutMs: number };
}

export function databaseConfig(e: DatabaseEnv): DatabaseConfig {
  return {
    databaseUrl: e.DATABASE_URL!,
    databaseRead: e.DATABASE_READ_URL
      ? { url: e.DATABASE_READ_URL, maxLagMs: e.DATABASE_READ_MAX_LAG_MS }
      : null,
    dbPoolSize: e.DB_POOL_SIZE,
    dbConnectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
    dbTimeouts: {
      statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: e.DB_LOCK_TIMEOUT_MS,
      bulkStatementTimeoutMs: e.DB_BULK_STATEMENT_TIMEOUT_MS,
    },
  };
}

export function checkDatabase(e: DatabaseEnv, ctx: z.RefinementCtx): void {
  if (e.DB_LOCK_TIMEOUT_MS > e.DB_STATEMENT_TIMEOUT_MS) {
    ctx.addIssue({
      code: 'custom',
      path: ['DB_LOCK_TIMEOUT_MS'],
      message:
        'must not exceed DB_STATEMENT_TIMEOUT_MS (the statement timeout bounds a lock wait too)',
    });
  }
  if (e.DB_BULK_STATEMENT_TIMEOUT_MS < e.DB_STATEMENT_TIMEOUT_MS) {
    ctx.addIssue({
      code: 'custom',
      path: ['DB_BULK_STATEMENT_TIMEOUT_MS'],
      message:
        'must be at least DB_STATEMENT_TIMEOUT_MS (it raises the bound for ingestion batches)',
    });
  }
}
