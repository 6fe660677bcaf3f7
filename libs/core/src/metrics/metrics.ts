import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The service's Prometheus metrics: one registry per process, one catalogue of names.
 * Every label is bounded: route templates (never raw URLs), fixed reason and outcome
 * words, queue names. Never an account id, a key, a domain or a job id.
 *
 * Code that counts something imports `metrics` and calls `.inc()` / `.observe()`; the
 * `/metrics` endpoints (API and worker) render `metricsRegistry`.
 */
export const metricsRegistry = new Registry();

let defaultsCollected = false;
/** Process metrics (CPU, memory, event-loop lag, handles); once per process. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

const registers = [metricsRegistry];

/** Why a request was refused before (or instead of) its endpoint's work. */
export type RefusalReason =
  | 'unauthenticated' // 401
  | 'forbidden' // 403 (plan or scope)
  | 'rate_limited' // 429 per-minute limit
  | 'monthly_limit' // 429 monthly call allowance
  | 'quota_exceeded' // 429 feature quota
  | 'payment_required'; // 402 no credits

export const metrics = {
  httpRequestDuration: new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route template, method and status code',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  }),
  refusals: new Counter({
    name: 'api_refusals_total',
    help: 'Requests refused, by reason',
    labelNames: ['reason'] as const,
    registers,
  }),
  meterOperations: new Counter({
    name: 'api_meter_operations_total',
    help: 'Monthly call meter decisions: admitted or refused',
    labelNames: ['outcome'] as const, // admitted | refused
    registers,
  }),
  creditOperations: new Counter({
    name: 'api_credit_operations_total',
    help: 'Credit and feature-quota ledger operations',
    labelNames: ['kind', 'operation'] as const, // kind: credit | quota; operation: reserve | commit | refund | grant | refused
    registers,
  }),
  researchCache: new Counter({
    name: 'api_research_cache_total',
    help: 'Research cache lookups by endpoint and result',
    labelNames: ['endpoint', 'result'] as const, // endpoint: backlinks | keyword_research; result: hit | miss
    registers,
  }),
  rankPages: new Counter({
    name: 'api_rank_keyword_pages_total',
    help: 'GET /rank/keywords pages by where their bytes came from',
    labelNames: ['result'] as const, // result: kept (unchanged since kept) | read (kept now) | not_kept
    registers,
  }),
  upstreamCalls: new Counter({
    name: 'upstream_provider_calls_total',
    help: 'Calls to the SEO data provider by endpoint and outcome',
    labelNames: ['provider', 'endpoint', 'outcome'] as const, // outcome: ok | no_data | error | timeout
    registers,
  }),
  upstreamDuration: new Histogram({
    name: 'upstream_provider_call_duration_seconds',
    help: 'Latency of calls to the SEO data provider',
    labelNames: ['provider', 'endpoint'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  }),
  providerSpendUsd: new Counter({
    name: 'provider_spend_usd_total',
    help: 'USD the provider charged for tasks posted by this process, by provider endpoint (the ledger: provider_spend)',
    labelNames: ['endpoint'] as const, // serp/google/organic/task_post
    registers,
  }),
  providerTasks: new Counter({
    name: 'provider_tasks_total',
    help: 'Provider tasks handled by this process, by provider endpoint and result',
    labelNames: ['endpoint', 'result'] as const, // result: posted | collected | no_results | refused | failed | given_up
    registers,
  }),
  gscSyncRequests: new Counter({
    name: 'gsc_sync_requests_total',
    help: 'searchAnalytics.query requests (and token refreshes) of the Search Console sync by result',
    labelNames: ['result'] as const, // ok | quota | reauth_required | not_found | transient | fatal
    registers,
  }),
  gscSyncRows: new Counter({
    name: 'gsc_sync_rows_total',
    help: 'Search Console facts the sync stored (each day replaced as a whole)',
    registers,
  }),
  gscBackfillDaysRemaining: new Gauge({
    name: 'gsc_backfill_days_remaining',
    help: 'Days still to backfill over every active Search Console property (as last read by this worker)',
    registers,
  }),
  queueDepth: new Gauge({
    name: 'queue_jobs',
    help: 'Jobs in each BullMQ queue by state (sampled at scrape time)',
    labelNames: ['queue', 'state'] as const, // state: waiting | active | delayed | failed | completed
    registers,
  }),
  jobDuration: new Histogram({
    name: 'site_audit_job_duration_seconds',
    help: 'Site-audit job duration from creation to terminal state, by final state',
    labelNames: ['state'] as const, // complete | failed
    buckets: [1, 5, 10, 30, 60, 120, 300, 600, 1200, 1800],
    registers,
  }),
  crawlPages: new Counter({
    name: 'crawl_pages_total',
    help: 'Pages the crawler fetched, by outcome',
    labelNames: ['outcome'] as const, // fetched | failed
    registers,
  }),
  webhookDeliveries: new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome',
    labelNames: ['outcome'] as const, // delivered | retry | failed | gone
    registers,
  }),
  longPollWaiting: new Gauge({
    name: 'jobs_long_poll_waiting',
    help: 'GET /jobs/{id}?wait= requests currently waiting on this instance',
    registers,
  }),
  standbyState: new Gauge({
    name: 'db_standby_in_use',
    help: 'Read standby (DATABASE_READ_URL): 1 while your-data reads go to it, 0 while they go to the primary (down or lagging), -1 when none is configured',
    registers,
  }),
  primaryNode: new Gauge({
    name: 'db_primary_node_info',
    help: 'The node DATABASE_URL reached at the last readiness check (1 on its address and port; behind HAProxy under Patroni, the current leader)',
    labelNames: ['address', 'port'] as const,
    registers,
  }),
  primaryInRecovery: new Gauge({
    name: 'db_primary_in_recovery',
    help: 'Whether the node DATABASE_URL reached is in recovery (1: a standby answered the primary address, a failover in progress) at the last readiness check',
    registers,
  }),
  primaryReplicas: new Gauge({
    name: 'db_primary_replicas',
    help: "Standbys streaming from the primary at the last readiness check, by pg_stat_replication's sync_state (sync: the synchronous standby every commit waits for)",
    labelNames: ['sync_state'] as const, // sync | async | potential | quorum
    registers,
  }),
  standbyNode: new Gauge({
    name: 'db_standby_node_info',
    help: 'The node DATABASE_READ_URL reached at the last standby check (1 on its address and port; behind HAProxy under Patroni, one of the replicas); no series while the standby is down',
    labelNames: ['address', 'port'] as const,
    registers,
  }),
  standbyLagSeconds: new Gauge({
    name: 'db_standby_lag_seconds',
    help: 'Replay lag of the read standby as last checked (0 when caught up; NaN while down)',
    registers,
  }),
  dbBusy: new Counter({
    name: 'db_busy_total',
    help: 'Requests answered 500 SERVER_ERROR + Retry-After because PostgreSQL, while up, did not run a statement in time',
    labelNames: ['reason'] as const, // query_canceled | lock_not_available | pool_wait
    registers,
  }),
  clockSkewSeconds: new Gauge({
    name: 'process_clock_skew_seconds',
    help: "This process's clock minus PostgreSQL's at the last check (every 30 s; positive: the process runs ahead)",
    registers,
  }),
  dependencyUp: new Gauge({
    name: 'dependency_up',
    help: '1 while the dependency answers, 0 while it is down (as last seen by this process)',
    labelNames: ['dependency'] as const, // postgres | redis
    registers,
  }),
  redisMemoryPolicy: new Gauge({
    name: 'redis_maxmemory_policy',
    help: "Redis's maxmemory-policy as last read by this process (1 for the current one; only noeviction keeps limits, locks and queued jobs when Redis is full)",
    labelNames: ['policy'] as const, // noeviction | allkeys-lru | ... | other | unknown
    registers,
  }),
  redisMaxmemoryBytes: new Gauge({
    name: 'redis_maxmemory_bytes',
    help: "Redis's maxmemory as last read by this process (0: no limit)",
    registers,
  }),
  redisOomRefusals: new Counter({
    name: 'redis_oom_refusals_total',
    help: 'Requests answered 500 because Redis refused a write at maxmemory (OOM, maxmemory-policy noeviction)',
    registers,
  }),
};
