import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig, metrics } from '@app/core';
import { dataSourceOptions } from './data-source-options';
import { unreachableDependency } from './dependency-health';
import { NodeAddress, publishNodeInfo } from './node-info';
import { Sql } from './sql';

/** Where the standby reads go now. */
type StandbyState = 'not_configured' | 'in_use' | 'lagging' | 'down';

/** What /health/ready shows of the standby. */
export interface StandbyStatus {
  state: StandbyState;
  /** Replay lag at the last check, ms (0 when caught up); null when unknown (down). */
  lag_ms: number | null;
  /**
   * The node the last check reached through DATABASE_READ_URL (behind HAProxy's standby
   * address: one of the replicas); null while down or not configured (issue 43).
   */
  node: NodeAddress | null;
}

/** How often the standby's state and lag are checked (never per request). */
const STANDBY_CHECK_INTERVAL_MS = 1000;
/** A check that takes longer than this counts as the standby being down. */
const CHECK_TIMEOUT_MS = 800;

/**
 * Reads that may be served by a hot standby (DATABASE_READ_URL): the your-data reads and the
 * usage history. `read(work)` runs `work` with the standby's `Sql` while the standby is in
 * use, and with the primary's otherwise; a read that fails on the standby with a connection
 * error or a recovery conflict is run again on the primary at once (reads are idempotent),
 * and the standby is taken out of use until the next check finds it well. Without
 * DATABASE_READ_URL `read` is the primary's, at the cost of one branch.
 *
 * Everything that decides money-like counts, auth, keys, sessions, OAuth, jobs, and anything
 * read back right after a write keeps using `Sql` (the primary) directly.
 *
 * The state is checked every second by a timer, not per request: the standby must answer
 * within 0.8 s and replay within DATABASE_READ_MAX_LAG_MS. Lag: the primary's current WAL
 * position is read first; a standby that has replayed up to it is caught up (lag 0, even on
 * an idle primary whose last transaction is old); one that has not is as stale as the time
 * since its last replayed transaction (`now() - pg_last_xact_replay_timestamp()`).
 */
@Injectable()
export class ReadSql implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ReadStandby');
  private readonly config: { url: string; maxLagMs: number } | null;
  private standby: { source: DataSource; sql: Sql } | null = null;
  private state: StandbyState;
  private lagMs: number | null = null;
  private node: StandbyStatus['node'] = null;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly primary: Sql,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'databaseRead'>,
  ) {
    this.config = config.databaseRead;
    this.state = this.config ? 'down' : 'not_configured';
    metrics.standbyState.set(this.config ? 0 : -1);
  }

  /** Runs a read on the standby while it is in use, else (and on its failure) on the primary. */
  read<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.state !== 'in_use') return work(this.primary);
    return work(this.standby!.sql).catch((err: unknown) => {
      if (!standbyFailure(err)) throw err;
      // Out of use at once, and no node named for it until a check reaches one again.
      this.setNode(null);
      this.setState('down', null, err);
      return work(this.primary);
    });
  }

  status(): StandbyStatus {
    return { state: this.state, lag_ms: this.lagMs, node: this.node };
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config) return;
    await this.check();
    this.timer = setInterval(() => void this.check(), STANDBY_CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checking?.catch(() => undefined);
    const source = this.standby?.source;
    this.standby = null;
    if (source?.isInitialized) await source.destroy().catch(() => undefined);
  }

  /** One check now (the timer's; tests call it to skip the wait). */
  check(): Promise<void> {
    this.checking ??= this.runCheck().finally(() => (this.checking = null));
    return this.checking;
  }

  private async runCheck(): Promise<void> {
    const config = this.config!;
    try {
      const standby = await withTimeout(this.connect(), CHECK_TIMEOUT_MS);
      const primary = await withTimeout(
        this.primary.one<{ lsn: string }>(`SELECT pg_current_wal_lsn()::text AS lsn`),
        CHECK_TIMEOUT_MS,
      );
      const replay = await withTimeout(
        standby.sql.one<{
          caught_up: boolean;
          age_ms: number | null;
          recovery: boolean;
          address: string | null;
          port: number | null;
        }>(
          `SELECT pg_is_in_recovery() AS recovery,
                  inet_server_addr()::text AS address, inet_server_port() AS port,
                  pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught_up,
                  (EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 AS age_ms`,
          [primary!.lsn],
        ),
        CHECK_TIMEOUT_MS,
      );
      if (!replay!.recovery)
        throw new Error('DATABASE_READ_URL is not a standby (not in recovery)');
      const lag = replay!.caught_up ? 0 : Math.max(0, Math.round(replay!.age_ms ?? Infinity));
      this.setNode({ address: replay!.address, port: replay!.port });
      this.setState(lag <= config.maxLagMs ? 'in_use' : 'lagging', lag);
    } catch (err) {
      this.setNode(null);
      this.setState('down', null, err);
    }
  }

  /** The node last reached, on /metrics as db_standby_node_info{address, port} 1. */
  private setNode(node: StandbyStatus['node']): void {
    this.node = node;
    publishNodeInfo(metrics.standbyNode, node);
  }

  /** The standby's data source, created on first use and again after a failed start. */
  private async connect(): Promise<{ source: DataSource; sql: Sql }> {
    if (this.standby) return this.standby;
    const source = new DataSource({
      ...dataSourceOptions(this.config!.url, 10, CHECK_TIMEOUT_MS),
      migrations: [],
      extra: { max: 10, application_name: 'seo-api-read', connectionTimeoutMillis: 2000 },
    });
    await source.initialize();
    this.standby = { source, sql: new Sql(source) };
    return this.standby;
  }

  private setState(state: StandbyState, lagMs: number | null, err?: unknown): void {
    const before = this.state;
    this.state = state;
    this.lagMs = lagMs;
    metrics.standbyState.set(state === 'in_use' ? 1 : 0);
    metrics.standbyLagSeconds.set(lagMs === null ? NaN : lagMs / 1000);
    if (before === state) return;
    const why =
      err instanceof Error ? `: ${err.message}` : lagMs !== null ? ` (lag ${lagMs} ms)` : '';
    const line = `Read standby ${state === 'in_use' ? 'in use' : state}${why}; your-data reads go to the ${state === 'in_use' ? 'standby' : 'primary'}`;
    if (state === 'in_use') this.logger.log(line);
    else this.logger.warn(line);
  }
}

/** A failure of the standby itself (not of the statement): retry on the primary. */
function standbyFailure(err: unknown): boolean {
  if (unreachableDependency(err)) return true;
  const code =
    (err as { code?: string; driverError?: { code?: string } }).driverError?.code ??
    (err as { code?: string }).code;
  // 40001: canceled by a conflict with recovery; 57P01-57P03, 08xxx: the server went away.
  return (
    typeof code === 'string' &&
    (code === '40001' || code.startsWith('57P') || code.startsWith('08'))
  );
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
