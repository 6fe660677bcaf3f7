import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { AdminClient, bearer } from '../helpers/fixtures';
import { signIn, SignedInUser } from '../helpers/account-session';
import { createTestApp, TestApp } from '../helpers/test-app';
import { startReceiver, verifies } from '../helpers/webhook-receiver';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A job id of the jobs table's form. */
const jobId = () => `job_${randomBytes(16).toString('hex').slice(0, 22)}`;

/**
 * Contract: docs/webhooks.md ("Test deliveries") and docs/console.md: GET /account/v1/webhooks,
 * POST /account/v1/webhooks/{id}/test (a signed `webhook.test` delivery sent now by the real
 * sender, its result answered; rate-limited; the address guard applies) and
 * GET /account/v1/site-audits?status=&limit=&offset= (the account's audits with paging).
 */
describe('Account area: webhook test deliveries and the site-audits list', () => {
  let t: TestApp;
  let admin: AdminClient;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:webhook-tests`,
        AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_TIMEOUT_MS: '2000',
      },
    });
    admin = new AdminClient(t.url);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const expectError = (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe(code);
  };

  async function person(): Promise<{ me: SignedInUser; key: string; accountId: number }> {
    const acc = await admin.account('pro');
    return { me: await signIn(t.url, acc.id), key: acc.key, accountId: acc.id };
  }

  /** A site-audit job of the account, as the worker leaves it. */
  async function job(
    accountId: number,
    status: 'complete' | 'failed' | 'running',
    extra: { url?: string; webhookUrl?: string; ageMinutes?: number } = {},
  ): Promise<string> {
    const id = jobId();
    const auditId = `aud_${id.slice(4)}`;
    const data =
      status === 'complete'
        ? {
            audit_id: auditId,
            domain: 'example.com',
            pages_crawled: 3,
            total_score: 87.5,
            geo_score: 60,
            issues: { critical: 0, warning: 1, total: 1 },
          }
        : null;
    const error =
      status === 'failed' ? { code: 'UNREACHABLE', message: 'The site did not answer' } : null;
    await t.db.query(
      `INSERT INTO jobs (id, account_id, endpoint, status, progress, params, data, error, webhook_url,
         created_at, updated_at, completed_at, deadline_at)
       VALUES ($1, $2, 'site-audit', $3, $4, $5, $6, $7, $8,
         now() - make_interval(mins => $9), now(), CASE WHEN $3 = 'running' THEN NULL ELSE now() END,
         now() + interval '1 hour')`,
      [
        id,
        accountId,
        status,
        status === 'running' ? 40 : status === 'complete' ? 100 : 10,
        JSON.stringify({ url: extra.url ?? 'https://example.com/' }),
        data === null ? null : JSON.stringify(data),
        error === null ? null : JSON.stringify(error),
        extra.webhookUrl ?? null,
        extra.ageMinutes ?? 0,
      ],
    );
    return id;
  }

  it('401 without a session; 403 for a cross-site POST, nothing sent', async () => {
    expectError(await t.http().get('/account/v1/webhooks'), 401, 'UNAUTHORIZED');
    expectError(await t.http().get('/account/v1/site-audits'), 401, 'UNAUTHORIZED');
    expectError(
      await t.http().post('/account/v1/webhooks/wh_000000000000000000000000/test'),
      401,
      'UNAUTHORIZED',
    );

    const { me } = await person();
    const url = receiver.endpoint([200]);
    expect((await me.put('/alerts', { webhook_url: url, thresholds: [80] })).status).toBe(200);
    const [hook] = (await me.get('/webhooks')).body.data;
    const crossSite = await me
      .post(`/webhooks/${hook.id}/test`)
      .set('Origin', 'https://evil.example');
    expectError(crossSite, 403, 'FORBIDDEN');
    const fetchSite = await me
      .post(`/webhooks/${hook.id}/test`)
      .set('Sec-Fetch-Site', 'cross-site');
    expectError(fetchSite, 403, 'FORBIDDEN');
    expect(receiver.received(url)).toHaveLength(0);
  });

  it('lists the usage-alert URL and the site audits’ webhook URLs, each once', async () => {
    const { me, accountId } = await person();
    expect((await me.get('/webhooks')).body.data).toEqual([]);
    const alerts = receiver.endpoint([200]);
    const audits = receiver.endpoint([200]);
    await me.put('/alerts', { webhook_url: alerts, thresholds: [80, 100] });
    await job(accountId, 'complete', { webhookUrl: audits, ageMinutes: 5 });
    await job(accountId, 'failed', { webhookUrl: audits, ageMinutes: 1 });
    await job(accountId, 'complete', { webhookUrl: alerts, ageMinutes: 9 });
    const list = (await me.get('/webhooks')).body.data as Array<Record<string, unknown>>;
    expect(list).toHaveLength(2);
    const byUrl = new Map(list.map((w) => [w.url, w]));
    expect(byUrl.get(alerts)).toMatchObject({ used_by: ['usage_alerts', 'site_audit'] });
    expect(byUrl.get(audits)).toMatchObject({ used_by: ['site_audit'] });
    for (const w of list) expect(w.id).toMatch(/^wh_[0-9a-f]{24}$/);
    expect(typeof byUrl.get(audits)!.last_used_at).toBe('string');
  });

  it('sends one signed webhook.test delivery with the real sender and answers its result', async () => {
    const { me, key } = await person();
    const url = receiver.endpoint([204]);
    await me.put('/alerts', { webhook_url: url, thresholds: [80] });
    const [hook] = (await me.get('/webhooks')).body.data;
    const before = (await t.http().get('/api/v1/usage').set(bearer(key))).body.data.api_calls_used;

    const res = await me.post(`/webhooks/${hook.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const result = res.body.data;
    expect(result).toMatchObject({
      event: 'webhook.test',
      url,
      delivered: true,
      status_code: 204,
      error: null,
    });
    expect(result.webhook_id).toMatch(/^msg_[0-9A-Za-z]{22}$/);
    expect(result.duration_ms).toBeGreaterThanOrEqual(0);
    expect(result.sent_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const got = receiver.received(url);
    expect(got).toHaveLength(1);
    const { headers, body } = got[0];
    expect(headers['webhook-id']).toBe(result.webhook_id);
    expect(headers['content-type']).toBe('application/json');
    expect(String(headers['user-agent'])).toMatch(/^SeoApi-Webhooks\//);
    const secret = (await me.get('/webhook-secret')).body.data.secret as string;
    expect(verifies(secret, headers, body)).toBe(true);
    expect(verifies(`whsec_${randomBytes(32).toString('base64')}`, headers, body)).toBe(false);
    const payload = JSON.parse(body);
    expect(payload.type).toBe('webhook.test');
    expect(payload.data).toMatchObject({ test: true, used_by: ['usage_alerts'] });

    // Not a delivery of the outbox (no row, no retry), not a metered call.
    expect((await me.get('/webhook-deliveries')).body.data).toEqual([]);
    const after = (await t.http().get('/api/v1/usage').set(bearer(key))).body.data.api_calls_used;
    expect(after).toBe(before + 1); // the usage read itself

    // During a rotation's overlap a test is signed with both secrets, as real deliveries are.
    const rotated = (await me.post('/webhook-secret/rotate')).body.data.secret as string;
    expect((await me.post(`/webhooks/${hook.id}/test`)).body.data.delivered).toBe(true);
    const second = receiver.received(url)[1];
    expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(rotated, second.headers, second.body)).toBe(true);
    expect(verifies(secret, second.headers, second.body)).toBe(true);
  });

  it('reports a receiver’s error status and a timeout as results, not failures of the route', async () => {
    const { me, accountId } = await person();
    const failing = receiver.endpoint([500]);
    const hanging = receiver.endpoint(['hang']);
    await job(accountId, 'complete', { webhookUrl: failing });
    await job(accountId, 'complete', { webhookUrl: hanging });
    const list = (await me.get('/webhooks')).body.data as Array<{ id: string; url: string }>;
    const idOf = (url: string) => list.find((w) => w.url === url)!.id;

    const failed = await me.post(`/webhooks/${idOf(failing)}/test`);
    expect(failed.status).toBe(200);
    expect(failed.body.data).toMatchObject({ delivered: false, status_code: 500, error: null });

    const timedOut = await me.post(`/webhooks/${idOf(hanging)}/test`);
    expect(timedOut.status).toBe(200);
    expect(timedOut.body.data).toMatchObject({
      delivered: false,
      status_code: null,
      error: 'timeout',
    });
    expect(timedOut.body.data.duration_ms).toBeGreaterThanOrEqual(1900);
  });

  it('the address guard applies: a target re-pointed to a private address is refused, reported cleanly', async () => {
    const { me, accountId } = await person();
    // Stored URLs were checked when given; these stand for one whose host changed since.
    const targets = [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.7/hook',
      'http://[::ffff:a9fe:a9fe]/hook',
    ];
    for (const url of targets) await job(accountId, 'complete', { webhookUrl: url });
    const list = (await me.get('/webhooks')).body.data as Array<{ id: string; url: string }>;
    expect(list).toHaveLength(targets.length);
    for (const w of list) {
      const res = await me.post(`/webhooks/${w.id}/test`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        url: w.url,
        delivered: false,
        status_code: null,
        error: 'refused: non-public address',
      });
    }
  });

  it('404 for another account’s webhook, an unknown or malformed id', async () => {
    const owner = await person();
    const other = await person();
    const url = receiver.endpoint([200]);
    await owner.me.put('/alerts', { webhook_url: url, thresholds: [80] });
    const [hook] = (await owner.me.get('/webhooks')).body.data;
    // The same URL in the other account has another id; the owner's id is not the other's.
    await other.me.put('/alerts', { webhook_url: url, thresholds: [80] });
    const [theirs] = (await other.me.get('/webhooks')).body.data;
    expect(theirs.id).not.toBe(hook.id);
    expectError(await other.me.post(`/webhooks/${hook.id}/test`), 404, 'NOT_FOUND');
    expectError(await owner.me.post(`/webhooks/${theirs.id}/test`), 404, 'NOT_FOUND');
    expectError(
      await owner.me.post('/webhooks/wh_ffffffffffffffffffffffff/test'),
      404,
      'NOT_FOUND',
    );
    expectError(await owner.me.post('/webhooks/%3Cscript%3E/test'), 404, 'NOT_FOUND');
    expect(receiver.received(url)).toHaveLength(0);
  });

  it('at most 10 tests a minute per account: the 11th is 429 RATE_LIMITED with retry_after', async () => {
    const { me } = await person();
    const url = receiver.endpoint([200]);
    await me.put('/alerts', { webhook_url: url, thresholds: [80] });
    const [hook] = (await me.get('/webhooks')).body.data;
    for (let i = 0; i < 10; i++)
      expect((await me.post(`/webhooks/${hook.id}/test`)).status).toBe(200);
    const refused = await me.post(`/webhooks/${hook.id}/test`);
    expectError(refused, 429, 'RATE_LIMITED');
    expect(refused.body.meta.retry_after).toBeGreaterThan(0);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(receiver.received(url)).toHaveLength(10);
    // Another account is not held up.
    const other = await person();
    await other.me.put('/alerts', { webhook_url: url, thresholds: [80] });
    const [theirs] = (await other.me.get('/webhooks')).body.data;
    expect((await other.me.post(`/webhooks/${theirs.id}/test`)).status).toBe(200);
  });

  it('GET /site-audits: the account’s audits newest first, with status filter and paging', async () => {
    const { me, accountId } = await person();
    const stranger = await person();
    await job(stranger.accountId, 'complete');
    const oldest = await job(accountId, 'complete', { url: 'https://a.example/', ageMinutes: 30 });
    const failed = await job(accountId, 'failed', { url: 'https://b.example/', ageMinutes: 20 });
    const running = await job(accountId, 'running', { url: 'https://c.example/', ageMinutes: 10 });

    const first = await me.get('/site-audits?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((j: { job_id: string }) => j.job_id)).toEqual([running, failed]);
    expect(first.body.meta).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(first.body.data[0]).toMatchObject({
      status: 'running',
      progress: 40,
      url: 'https://c.example/',
    });
    expect(first.body.data[1].error).toEqual({
      code: 'UNREACHABLE',
      message: 'The site did not answer',
    });

    const second = await me.get('/site-audits?limit=2&offset=2');
    expect(second.body.data.map((j: { job_id: string }) => j.job_id)).toEqual([oldest]);
    expect(second.body.data[0].data.report_url).toBe(
      `${t.config.publicBaseUrl}/reports/audits/aud_${oldest.slice(4)}`,
    );

    const complete = await me.get('/site-audits?status=complete');
    expect(complete.body.data).toHaveLength(1);
    expect(complete.body.meta.total).toBe(1);

    expectError(await me.get('/site-audits?status=done'), 422, 'VALIDATION_ERROR');
    expectError(await me.get('/site-audits?limit=0'), 422, 'VALIDATION_ERROR');
    expectError(await me.get('/site-audits?limit=101'), 422, 'VALIDATION_ERROR');
    expectError(await me.get('/site-audits?offset=-1'), 422, 'VALIDATION_ERROR');
  });
});
