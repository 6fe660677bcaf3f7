import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { APP_CONFIG, AppConfig, metrics } from '@app/core';
import { NodeAddress, publishNodeInfo } from './node-info';

/** The bound of one ping, connecting included (ms). */
const PING_TIMEOUT_MS = 2000;

/** Which node answered the ping, whether it is a primary, and its standbys' states. */
export interface PrimaryNodeStatus extends NodeAddress {
  in_recovery: boolean;
  replication: Array<{ application_name: string; state: string | null; sync_state: string | null }>;
  checked_at: string;
}

const NODE_SQL = `SELECT inet_server_addr()::text AS address, inet_server_port() AS port,
  pg_is_in_recovery() AS in_recovery,
  (SELECT coalesce(json_agg(json_build_object('application_name', application_name,
     'state', state, 'sync_state', sync_state) ORDER BY application_name), '[]'::json)
   FROM pg_stat_replication) AS replication`;

/**
 * Whether PostgreSQL answers, asked on a connection of its own (`/health/ready`, the home
 * page): not through the request pool, whose slots may all be taken by statements waiting on
 * a lock or by a burst. A busy pool is this process's queue, not PostgreSQL being down, and
 * answering 503 for it made a balancer drop every instance at once (issue 35). The
 * connection is opened on the first ping and kept; a failed or timed-out ping drops it, so
 * the next one connects afresh. Concurrent pings share one round trip.
 */
@Injectable()
export class PostgresPing implements OnApplicationShutdown {
  private client: Client | null = null;
  private lastNode: PrimaryNodeStatus | null = null;
  private inFlight: Promise<void> | null = null;
  private closed = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * Resolves when PostgreSQL answers (the node query, NODE_SQL) within `timeoutMs`; rejects
   * otherwise.
   */
  ping(timeoutMs = PING_TIMEOUT_MS): Promise<void> {
    if (this.closed) return Promise.reject(new Error('PostgresPing is closed'));
    this.inFlight ??= this.run(timeoutMs).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /**
   * The node DATABASE_URL reached at the last successful ping (through HAProxy: the current
   * Patroni leader) and its replication state; null before the first ping (issue 43).
   */
  node(): PrimaryNodeStatus | null {
    return this.lastNode;
  }

  onApplicationShutdown(): Promise<void> | void {
    this.closed = true;
    const client = this.client;
    this.client = null;
    if (client) return client.end().catch(() => undefined);
  }

  private async run(timeoutMs: number): Promise<void> {
    let client = this.client;
    let timer: NodeJS.Timeout | undefined;
    try {
      const attempt = async (): Promise<void> => {
        if (!client) {
          client = new Client({
            connectionString: this.config.databaseUrl,
            connectionTimeoutMillis: timeoutMs,
            statement_timeout: timeoutMs,
            application_name: 'seo-api-ready',
          });
          const opened = client;
          opened.on('error', () => this.drop(opened));
          this.client = opened;
          await opened.connect();
        }
        const r = await client.query<PrimaryNodeStatus>(NODE_SQL);
        this.lastNode = { ...r.rows[0], checked_at: new Date().toISOString() };
        publishNode(this.lastNode);
      };
      await Promise.race([
        attempt(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('PostgreSQL ping timed out')), timeoutMs);
          timer.unref();
        }),
      ]);
    } catch (err) {
      if (client) this.drop(client);
      throw err;
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  private drop(client: Client): void {
    if (this.client === client) this.client = null;
    // A silent server never answers the Terminate message: destroy the socket instead.
    (
      client as unknown as { connection?: { stream?: { destroy(): void } } }
    ).connection?.stream?.destroy();
    client.end().catch(() => undefined);
  }
}

/** The node's figures on /metrics (db_primary_node_info, db_primary_in_recovery, db_primary_replicas). */
function publishNode(node: PrimaryNodeStatus): void {
  publishNodeInfo(metrics.primaryNode, node);
  metrics.primaryInRecovery.set(node.in_recovery ? 1 : 0);
  metrics.primaryReplicas.reset();
  for (const state of ['sync', 'async', 'potential', 'quorum'])
    metrics.primaryReplicas.set(
      { sync_state: state },
      node.replication.filter((r) => r.sync_state === state).length,
    );
}
