import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { Queue } from 'bullmq';
import {
  APP_CONFIG,
  AppConfig,
  MONITORED_QUEUES,
  bearerToken,
  collectProcessMetrics,
  metricsRegistry,
  sampleQueueDepths,
} from '@app/core';
import { ADMIN_AUTH_FAILURES_PER_IP, AdminAuthThrottle } from '@app/redis';
import { bullRootOptions } from '@app/site-audit';

/**
 * The worker's GET /metrics on its own small HTTP server (WORKER_METRICS_PORT; 0, the
 * default, runs none). Same bearer rule as the API: ADMIN_TOKEN or METRICS_TOKEN, compared
 * in constant time; 401 without it; 404 when neither token is set. Anything else is 404.
 * Failed tokens count on the same per-address throttle as the API's admin routes
 * (AdminAuthThrottle, shared in Redis): past ADMIN_AUTH_FAILURES_PER_IP within the window,
 * every request from the address is answered 429 with Retry-After, right token or not.
 * Listens on all interfaces, like the API: keep the port on the private network.
 */
@Injectable()
export class WorkerMetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | null = null;
  private queues: Queue[] = [];
  private readonly tokens: Buffer[];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly throttle: AdminAuthThrottle,
  ) {
    this.tokens = [config.adminToken, config.metricsToken]
      .filter((t): t is string => typeof t === 'string')
      .map(digest);
  }

  async onApplicationBootstrap(): Promise<void> {
    collectProcessMetrics();
    const port = this.config.workerMetricsPort;
    if (port === 0) return;
    if (this.tokens.length === 0) {
      this.logger.warn(
        'WORKER_METRICS_PORT is set but neither ADMIN_TOKEN nor METRICS_TOKEN: /metrics answers 404',
      );
    }
    this.queues = MONITORED_QUEUES.map((name) => new Queue(name, bullRootOptions(this.config)));
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, () => resolve());
    });
    this.server = server;
    this.logger.log(`Worker metrics on port ${port} (GET /metrics)`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await Promise.all(this.queues.map((q) => q.close().catch(() => undefined)));
    this.queues = [];
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics' || this.tokens.length === 0) {
      return send(res, 404, 'NOT_FOUND', 'Unknown endpoint.');
    }
    const token = bearerToken(req.headers.authorization);
    const offered = token !== null ? digest(token) : null;
    let ok = false;
    for (const t of this.tokens) if (offered && timingSafeEqual(offered, t)) ok = true;
    try {
      const verdict = await this.throttle.check(req.socket.remoteAddress ?? '', !ok);
      if (!verdict.allowed) {
        const wait = verdict.retryAfterSeconds;
        return send(
          res,
          429,
          'RATE_LIMITED',
          AdminAuthThrottle.refusal(wait),
          { 'Retry-After': String(wait) },
          { retry_after: wait, limit: ADMIN_AUTH_FAILURES_PER_IP },
        );
      }
      if (!ok) return send(res, 401, 'UNAUTHORIZED', 'Missing or invalid metrics token.');
      const errors = await sampleQueueDepths(this.queues);
      for (const err of errors) this.logger.warn({ err }, 'Queue depth could not be read');
      const body = await metricsRegistry.metrics();
      res.writeHead(200, {
        'Content-Type': metricsRegistry.contentType,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      res.end(body);
    } catch (err) {
      this.logger.error({ err }, 'Metrics scrape failed');
      send(res, 500, 'SERVER_ERROR', 'Internal error. It is safe to retry.');
    }
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** The error envelope, as the API writes it. */
function send(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
  meta: Record<string, unknown> = {},
): void {
  const body = JSON.stringify({
    success: false,
    error: { code, message },
    meta: { ...meta, timestamp: new Date().toISOString() },
  });
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}
