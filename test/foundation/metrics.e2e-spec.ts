import request from 'supertest';
import Redis from 'ioredis';
import { ADMIN_AUTH_FAILURES_PER_IP } from '@app/redis';
import { ApiError } from '@app/core';
import { refusalReason } from '@app/gateway';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { ADMIN_TOKEN, createTestApp, TestApp } from '../helpers/test-app';
import { freePort, spawnDist, waitForHttp } from '../helpers/processes';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one sample line `name{labels} value`, or null when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    const ok = Object.entries(labels).every(([k, v]) => body.includes(`${k}="${v}"`));
    if (ok) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return null;
}

describe('GET /metrics (issue 15)', () => {
  let t: TestApp;
  let account: TestAccount;
  let text: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { METRICS_TOKEN, REDIS_PREFIX: `${process.env.REDIS_PREFIX}:metrics` },
    });
    account = await new AdminClient(t.url).account('pro');
    // The scripted mix: admitted calls, refusals, an unknown path, a research miss then hit.
    const http = () => request(t.url);
    expect((await http().get('/api/v1/usage').set(bearer(account.key))).status).toBe(200);
    expect((await http().get('/api/v1/usage')).status).toBe(401);
    expect((await http().get('/api/v1/usage').set(bearer('seo_live_nope'))).status).toBe(401);
    expect(
      (await http().get('/api/v1/jobs/job_secretish_0123456789').set(bearer(account.key))).status,
    ).toBe(404);
    expect((await http().get('/no/such/path/abc123')).status).toBe(404);
    for (let i = 0; i < 2; i++) {
      const r = await http().get('/api/v1/backlinks?domain=example.com').set(bearer(account.key));
      expect(r.status).toBe(200);
      expect(r.body.meta.cached).toBe(i === 1);
    }
    const res = await http().get('/metrics').set(bearer(ADMIN_TOKEN()));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    text = res.text;
  });
  afterAll(() => t.close());

  it('answers 401 with the error envelope without a token or with a customer key', async () => {
    for (const auth of [undefined, `Bearer ${account.key}`, 'Bearer wrong-token-0123456789']) {
      const req = request(t.url).get('/metrics');
      const res = await (auth ? req.set('Authorization', auth) : req);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    }
  });

  it('accepts METRICS_TOKEN as well as the admin token', async () => {
    const res = await request(t.url).get('/metrics').set(bearer(METRICS_TOKEN));
    expect(res.status).toBe(200);
    expect(res.text).toContain('http_request_duration_seconds');
  });

  it('is not metered: a scrape does not count as an API call', async () => {
    const used = async () =>
      (await request(t.url).get('/api/v1/usage').set(bearer(account.key))).body.data;
    const before = await used();
    await request(t.url).get('/metrics').set(bearer(ADMIN_TOKEN()));
    const after = await used();
    expect(typeof before.api_calls_used).toBe('number');
    expect(after.api_calls_used).toBe(before.api_calls_used + 1);
  });

  it('has request durations by route template and status, never raw URLs', () => {
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        route: '/api/v1/usage',
        method: 'GET',
        status: '200',
      }),
    ).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        route: '/api/v1/usage',
        status: '401',
      }),
    ).toBe(2);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        route: '/api/v1/jobs/:job_id',
        status: '404',
      }),
    ).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', { route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('job_secretish');
    expect(text).not.toContain('abc123');
    expect(text).not.toContain('example.com');
    expect(text).not.toContain(account.key);
    // Every route label is a template or "unmatched".
    for (const m of text.matchAll(/route="([^"]*)"/g)) {
      expect(m[1]).toMatch(/^(unmatched|\/[A-Za-z0-9_/:.-]*)$/);
    }
  });

  it('counts refusals, meter decisions, credit/quota operations, cache and upstream calls', () => {
    expect(sample(text, 'api_refusals_total', { reason: 'unauthenticated' })).toBe(2);
    expect(sample(text, 'api_meter_operations_total', { outcome: 'admitted' })).toBe(4);
    expect(
      sample(text, 'api_research_cache_total', { endpoint: 'backlinks', result: 'miss' }),
    ).toBe(1);
    expect(sample(text, 'api_research_cache_total', { endpoint: 'backlinks', result: 'hit' })).toBe(
      1,
    );
    const op = (operation: string) =>
      (sample(text, 'api_credit_operations_total', { kind: 'quota', operation }) ?? 0) +
      (sample(text, 'api_credit_operations_total', { kind: 'credit', operation }) ?? 0);
    expect(op('reserve')).toBe(1);
    expect(op('commit')).toBe(1);
    expect(
      sample(text, 'upstream_provider_calls_total', {
        provider: 'sandbox',
        endpoint: 'backlinks',
        outcome: 'ok',
      }),
    ).toBe(1);
  });

  it('samples queue depth for every monitored queue and has process metrics', () => {
    for (const queue of ['site-audit', 'webhooks']) {
      expect(sample(text, 'queue_jobs', { queue, state: 'waiting' })).not.toBeNull();
    }
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('maps every refusal code to its reason (monthly 429 carries resets_at)', () => {
    const cases: Array<[ApiError, string | null]> = [
      [new ApiError('UNAUTHORIZED', 'x'), 'unauthenticated'],
      [new ApiError('FORBIDDEN', 'x'), 'forbidden'],
      [new ApiError('RATE_LIMITED', 'x', { meta: { retry_after: 3, limit: 5 } }), 'rate_limited'],
      [
        new ApiError('RATE_LIMITED', 'x', { meta: { resets_at: '2026-12-01', limit: 20 } }),
        'monthly_limit',
      ],
      [new ApiError('QUOTA_EXCEEDED', 'x'), 'quota_exceeded'],
      [new ApiError('PAYMENT_REQUIRED', 'x'), 'payment_required'],
      [new ApiError('NOT_FOUND', 'x'), null],
    ];
    for (const [error, reason] of cases) expect(refusalReason(error)).toBe(reason);
  });
});

describe('worker GET /metrics on WORKER_METRICS_PORT (issue 15)', () => {
  it('answers 401 without the token and the registry with it', async () => {
    const port = await freePort();
    const worker = spawnDist('apps/worker/src/main.js', {
      WORKER_METRICS_PORT: String(port),
      METRICS_TOKEN,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}:metrics-worker`,
    });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/metrics`, 30_000);
      const denied = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(denied.status).toBe(401);
      expect(denied.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await denied.json()).toMatchObject({
        success: false,
        error: { code: 'UNAUTHORIZED' },
      });
      for (const token of [ADMIN_TOKEN(), METRICS_TOKEN]) {
        const ok = await fetch(`http://127.0.0.1:${port}/metrics`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(ok.status).toBe(200);
        expect(ok.headers.get('x-content-type-options')).toBe('nosniff');
        const body = await ok.text();
        expect(body).toMatch(/queue_jobs\{queue="site-audit",state="waiting"\} \d+/);
        expect(body).toContain('process_resident_memory_bytes');
      }
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  }, 60_000);
});

describe('worker GET /metrics: failed tokens throttled per address (issue 21)', () => {
  it('401 for the first failures, then 429 with Retry-After for every request from the address, right token or not', async () => {
    const port = await freePort();
    const prefix = `${process.env.REDIS_PREFIX}:metrics-worker-throttle`;
    const worker = spawnDist('apps/worker/src/main.js', {
      WORKER_METRICS_PORT: String(port),
      METRICS_TOKEN,
      ADMIN_AUTH_WINDOW_SECONDS: '3',
      REDIS_PREFIX: prefix,
    });
    const redis = new Redis(process.env.REDIS_URL!);
    const url = `http://127.0.0.1:${port}/metrics`;
    const scrape = (token: string) => fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    try {
      await waitForHttp(url, 30_000);
      // The start-up probe failed without a token: begin from an empty window.
      const keys = await redis.keys(`${prefix}:admin-auth:*`);
      if (keys.length > 0) await redis.del(...keys);

      for (let i = 0; i < ADMIN_AUTH_FAILURES_PER_IP; i += 1) {
        expect((await scrape(`wrong-${i}`)).status).toBe(401);
      }
      const refused = await scrape('wrong-again');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await refused.json()).toMatchObject({
        success: false,
        error: { code: 'RATE_LIMITED' },
        meta: { limit: ADMIN_AUTH_FAILURES_PER_IP },
      });
      // At the limit the right token is refused too, until the window ends.
      const right = await scrape(METRICS_TOKEN);
      expect(right.status).toBe(429);
      const wait = Number(right.headers.get('retry-after'));
      await new Promise((r) => setTimeout(r, wait * 1000 + 200));
      expect((await scrape(METRICS_TOKEN)).status).toBe(200);
    } finally {
      redis.disconnect();
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  }, 60_000);
});
