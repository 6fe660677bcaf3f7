import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import type { TestingModule } from '@nestjs/testing';
import request from 'supertest';
import { WebhookSecretsService, WebhookSweeperService } from '@app/webhooks';
import { signIn } from '../helpers/account-session';
import { AdminClient, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { DIST, freePort, spawnDist } from '../helpers/processes';
import { createOwnDatabase } from '../helpers/own-database';
import { startReceiver, until, verifies } from '../helpers/webhook-receiver';
import { FixtureSite, closedPort, startFixtureSite } from './fixture-site';
import { POLLING_OVERRIDES, startWorker, waitForJob } from './site-audit-helpers';

describe('Site-audit webhooks: signed deliveries, retries, address guard, secrets', () => {
  let t: TestApp;
  let strict: TestApp; // AUDIT_ALLOW_PRIVATE_NETWORKS=false
  let admin: AdminClient;
  let worker: TestingModule;
  let site: FixtureSite;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let acc: Awaited<ReturnType<AdminClient['account']>>;

  const start = (key: string, body: Record<string, unknown>, app: TestApp = t) =>
    request(app.url).post('/api/v1/site-audit').set(bearer(key)).send(body);
  const deliveries = async (accountId: number) => {
    const res = await admin.get(`/accounts/${accountId}/webhook-deliveries`);
    expect(res.status).toBe(200);
    return res.body.data as Array<Record<string, unknown>>;
  };
  const deliveryOf = async (accountId: number, jobId: string) =>
    (await deliveries(accountId)).find((d) => d.job_id === jobId);
  const settled = (accountId: number, jobId: string) =>
    until(
      () => deliveryOf(accountId, jobId),
      (d) => d !== undefined && d.status !== 'pending',
    );
  const secretOf = async (accountId: number) =>
    (await admin.get(`/accounts/${accountId}/webhook-secret`)).body.data.secret as string;

  /** Runs an audit of the fixture site (or of a closed port: it fails) with a webhook. */
  const audit = async (webhookUrl: string, fail = false) => {
    const url = fail ? `http://127.0.0.1:${await closedPort()}/` : `${site.origin}/`;
    const res = await start(acc.key, { url, max_pages: 3, depth: 1, webhook_url: webhookUrl });
    expect(res.status).toBe(202);
    const { final } = await waitForJob(t.url, acc.key, res.body.job_id, { intervalMs: 50 });
    return { jobId: res.body.job_id as string, final };
  };

  beforeAll(async () => {
    site = await startFixtureSite({ articles: 2 });
    receiver = await startReceiver();
    t = await createTestApp({
      env: {
        AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
        AUDIT_POLITENESS_DELAY_MS: '0',
        WEBHOOK_RETRY_SCHEDULE_MS: '100,100,100,100,100,100,100',
        WEBHOOK_TIMEOUT_MS: '500',
      },
    });
    strict = await createTestApp({ env: { AUDIT_ALLOW_PRIVATE_NETWORKS: 'false' } });
    admin = new AdminClient(t.url);
    worker = await startWorker(t.config, t.clock);
    acc = await admin.account('pro', POLLING_OVERRIDES);
  });

  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await strict?.close();
    await receiver?.close();
    await site?.close();
  });

  it('500, 500, then 200: one delivery, same webhook-id on every attempt, signed, attempts counted, meter untouched', async () => {
    const hook = receiver.endpoint([500, 500, 200]);
    const { jobId, final } = await audit(hook);
    expect(final.status).toBe('complete');
    const usageBefore = (await admin.get(`/accounts/${acc.id}`)).body.data.usage;

    const d = await settled(acc.id, jobId);
    expect(d).toMatchObject({
      status: 'delivered',
      event: 'site_audit.completed',
      url: hook,
      attempts: 3,
      last_status_code: 200,
    });
    expect(d!.id).toMatch(/^msg_[0-9A-Za-z]{22}$/);
    expect(d!.delivered_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const got = receiver.received(hook);
    expect(got.map((r) => r.answered)).toEqual([500, 500, 200]);
    expect(new Set(got.map((r) => r.headers['webhook-id']))).toEqual(new Set([d!.id]));
    const secret = await secretOf(acc.id);
    for (const r of got) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toMatch(/SeoApi/);
      expect(r.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
      expect(verifies(secret, r.headers, r.body)).toBe(true);
      // a tampered body does not verify
      expect(verifies(secret, r.headers, r.body.replace('complete', 'failed'))).toBe(false);
    }
    // the payload: {type, timestamp, data}, data = the data of GET /jobs/{id}
    const payload = JSON.parse(got[2].body);
    expect(Object.keys(payload).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(payload.type).toBe('site_audit.completed');
    expect(payload.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);

    // no further attempt after the 2xx, and the deliveries cost nothing
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.received(hook)).toHaveLength(3);
    expect((await admin.get(`/accounts/${acc.id}`)).body.data.usage).toEqual(usageBefore);

    const job = await request(t.url).get(`/api/v1/jobs/${jobId}`).set(bearer(acc.key));
    expect(payload.data).toEqual(job.body.data);
  });

  it('410 Gone stops at once: failed after one attempt (a failed job sends site_audit.failed)', async () => {
    const hook = receiver.endpoint([410]);
    const { jobId, final } = await audit(hook, true);
    expect(final.status).toBe('failed');
    const d = await settled(acc.id, jobId);
    expect(d).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_status_code: 410,
      delivered_at: null,
    });
    await new Promise((r) => setTimeout(r, 300));
    const got = receiver.received(hook);
    expect(got).toHaveLength(1);
    const payload = JSON.parse(got[0].body);
    expect(payload.type).toBe('site_audit.failed');
    expect(payload.data.status).toBe('failed');
    expect(payload.data.error.code).toEqual(expect.any(String));
  });

  it('a receiver that does not answer in time is retried (timeout), then delivered', async () => {
    const hook = receiver.endpoint(['hang', 204]);
    const { jobId } = await audit(hook);
    const d = await settled(acc.id, jobId);
    expect(d).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 204 });
    expect(receiver.received(hook).map((r) => r.answered)).toEqual(['hang', 204]);
  });

  it('a delivery that never gets a 2xx fails after the whole schedule (1 + 7 attempts); redirects are not followed', async () => {
    const hook = receiver.endpoint([302]);
    const { jobId } = await audit(hook);
    const d = await settled(acc.id, jobId);
    expect(d).toMatchObject({ status: 'failed', attempts: 8, last_status_code: 302 });
    expect(receiver.received(hook)).toHaveLength(8);
  });

  it('the sweep re-enqueues a committed delivery the queue never got (crash between commit and enqueue)', async () => {
    const { jobId } = await audit(receiver.endpoint([200])); // delivered normally
    await settled(acc.id, jobId);
    const hook = receiver.endpoint([200]);
    // The state a crash leaves behind: a pending outbox row, nothing in the queue.
    const old = new Date(t.clock.now().getTime() - 120_000);
    const id = 'msg_SWEEPSWEEPSWEEPSWEEP01';
    await t.db.query(`UPDATE jobs SET webhook_url = $2 WHERE id = $1`, [jobId, hook]);
    await t.db.query(`DELETE FROM webhook_deliveries WHERE job_id = $1`, [jobId]);
    await t.db.query(
      `INSERT INTO webhook_deliveries (id, account_id, job_id, event, url, status, attempts, next_attempt_at, created_at)
       VALUES ($1, $2, $3, 'site_audit.completed', $4, 'pending', 0, $5, $5)`,
      [id, acc.id, jobId, hook, old],
    );
    const sweeper = worker.get(WebhookSweeperService);
    expect(await sweeper.runOnce()).toBe(1);
    const d = await settled(acc.id, jobId);
    expect(d).toMatchObject({ id, status: 'delivered', attempts: 1 });
    expect(receiver.received(hook)[0].headers['webhook-id']).toBe(id);
    expect(await sweeper.runOnce()).toBe(0);
  });

  describe('webhook_url refused at POST time (422, nothing charged, nothing stored)', () => {
    let strictAcc: Awaited<ReturnType<AdminClient['account']>>;
    const PUBLIC_TARGET = 'https://93.184.215.14/'; // an IP literal: no DNS needed

    beforeAll(async () => {
      strictAcc = await new AdminClient(strict.url).account('pro', POLLING_OVERRIDES);
    });

    it.each([
      ['10.x', 'https://10.1.2.3/hook'],
      ['loopback 127.0.0.1', 'https://127.0.0.1/hook'],
      ['loopback over http', 'http://127.0.0.1:8080/hook'],
      ['the metadata address', 'https://169.254.169.254/latest/meta-data'],
      ['IPv6 loopback', 'https://[::1]/hook'],
      ['a hostname resolving to loopback', 'https://localhost/hook'],
      ['decimal loopback spelling', 'https://2130706433/hook'],
      ['http to a public host', 'http://93.184.215.14/hook'],
      ['a bad scheme', 'ftp://example.com/hook'],
      ['credentials in the URL', 'https://user:pw@example.com/hook'],
      ['not a URL', 'hooks please'],
      ['too long', `https://example.com/${'a'.repeat(2048)}`],
      ['empty', ''],
      ['a number', 123],
      ['a boolean', true],
      ['an array', ['https://example.com/hook']],
      ['an object', { url: 'https://example.com/hook' }],
    ] as Array<[string, unknown]>)('%s', async (_what, webhookUrl) => {
      const before = (await admin.get(`/accounts/${strictAcc.id}`)).body.data.usage;
      const res = await start(
        strictAcc.key,
        { url: PUBLIC_TARGET, webhook_url: webhookUrl },
        strict,
      );
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: 'webhook_url' })]),
      );
      const after = (await admin.get(`/accounts/${strictAcc.id}`)).body.data.usage;
      // only the call itself is counted; no crawl, no pages
      expect({ ...after, api_calls_per_month: undefined }).toEqual({
        ...before,
        api_calls_per_month: undefined,
      });
      const jobs = await t.db.query(`SELECT count(*)::int AS n FROM jobs WHERE account_id = $1`, [
        strictAcc.id,
      ]);
      expect(jobs[0].n).toBe(0);
    });

    it('with private networks allowed, plain http is still refused for a non-loopback address', async () => {
      const res = await start(acc.key, {
        url: `${site.origin}/`,
        webhook_url: 'http://10.0.0.1/hook',
      });
      expect(res.status).toBe(422);
      expect(res.body.error.details[0].field).toBe('webhook_url');
    });
  });

  describe('signing secret: admin and account area', () => {
    it('admin: whsec_ + base64 of 32 bytes, created on first read and stable; unknown account 404', async () => {
      const other = await admin.account('pro');
      const first = await admin.get(`/accounts/${other.id}/webhook-secret`);
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        previous_secret_valid_until: null,
      });
      expect(Buffer.from(first.body.data.secret.slice(6), 'base64')).toHaveLength(32);
      expect((await admin.get(`/accounts/${other.id}/webhook-secret`)).body.data).toEqual(
        first.body.data,
      );
      expect((await admin.get(`/accounts/999999/webhook-secret`)).status).toBe(404);
      expect((await admin.get(`/accounts/999999/webhook-deliveries`)).status).toBe(404);
      expect((await admin.get(`/accounts/${other.id}/webhook-deliveries`)).body.data).toEqual([]);
      expect((await admin.get(`/accounts/${other.id}/webhook-deliveries?limit=0`)).status).toBe(
        422,
      );
      expect(
        (await request(t.url).get(`/admin/v1/accounts/${other.id}/webhook-secret`)).status,
      ).toBe(401);
    });

    it('admin deliveries: newest first, limit and page', async () => {
      const all = await deliveries(acc.id);
      expect(all.length).toBeGreaterThanOrEqual(4);
      expect(Object.keys(all[0]).sort()).toEqual(
        [
          'attempts',
          'delivered_at',
          'event',
          'id',
          'job_id',
          'last_attempt_at',
          'last_status_code',
          'status',
          'url',
        ].sort(),
      );
      const page2 = await admin.get(`/accounts/${acc.id}/webhook-deliveries?limit=1&page=2`);
      expect(page2.body.data).toEqual([all[1]]);
    });

    it('account area: the same secret, the last deliveries, rotation signs with both secrets for 24 hours', async () => {
      const person = await signIn(t.url, acc.id);
      const shown = await person.get('/webhook-secret');
      expect(shown.status).toBe(200);
      const oldSecret = shown.body.data.secret as string;
      expect(oldSecret).toBe(await secretOf(acc.id));
      const listed = await person.get('/webhook-deliveries');
      expect(listed.body.data).toEqual(await deliveries(acc.id));

      // a cross-site rotation is refused and changes nothing
      const evil = await request(t.url)
        .post('/account/v1/webhook-secret/rotate')
        .set('Cookie', person.cookie)
        .set('Origin', 'https://evil.example');
      expect(evil.status).toBe(403);
      expect(await secretOf(acc.id)).toBe(oldSecret);
      // signed out: 401
      expect((await request(t.url).get('/account/v1/webhook-secret')).status).toBe(401);

      const rotated = await person.post('/webhook-secret/rotate');
      expect(rotated.status).toBe(200);
      const newSecret = rotated.body.data.secret as string;
      expect(newSecret).not.toBe(oldSecret);
      expect(rotated.body.data.previous_secret_valid_until).toEqual(expect.any(String));
      expect(await secretOf(acc.id)).toBe(newSecret);

      const during = receiver.endpoint([200]);
      await settled(acc.id, (await audit(during)).jobId);
      const [r] = receiver.received(during);
      expect(String(r.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verifies(newSecret, r.headers, r.body)).toBe(true);
      expect(verifies(oldSecret, r.headers, r.body)).toBe(true);

      // 24 hours later the old secret no longer signs
      t.clock.advance(24 * 3_600_000 + 1000);
      const after = receiver.endpoint([200]);
      await settled(acc.id, (await audit(after)).jobId);
      const [r2] = receiver.received(after);
      expect(String(r2.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(verifies(newSecret, r2.headers, r2.body)).toBe(true);
      expect(verifies(oldSecret, r2.headers, r2.body)).toBe(false);
      const later = await signIn(t.url, acc.id); // the first session has expired by now
      expect((await later.get('/webhook-secret')).body.data).toMatchObject({
        secret: newSecret,
        previous_secret_valid_until: null,
      });
    });
  });
});

describe('Webhook signing secrets at rest: AES-256-GCM under SECRETS_ENCRYPTION_KEY (issue 21)', () => {
  const k1 = randomBytes(32).toString('base64');
  const k2 = randomBytes(32).toString('hex');
  let t: TestApp;
  let admin: AdminClient;
  let worker: TestingModule;
  let site: FixtureSite;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  // Its own database: the sealed rows it leaves need keys other suites' processes lack.
  let db: Awaited<ReturnType<typeof createOwnDatabase>>;

  const stored = async (accountId: number) =>
    (
      (await t.db.query(
        `SELECT secret, previous_secret FROM webhook_secrets WHERE account_id = $1`,
        [accountId],
      )) as Array<{ secret: string; previous_secret: string | null }>
    )[0];
  const secretOf = async (accountId: number) =>
    (await admin.get(`/accounts/${accountId}/webhook-secret`)).body.data.secret as string;
  const rotateCli = (env: Record<string, string>) =>
    spawnSync(process.execPath, [`${DIST}/apps/api/src/cli/rotate-secrets.js`], {
      env: { ...process.env, DATABASE_URL: db.url, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
  /** The compiled API's start with this environment: its exit code and output (it must refuse). */
  const startApi = async (env: Record<string, string>) => {
    const api = spawnDist('apps/api/src/main.js', {
      PORT: String(await freePort()),
      DATABASE_URL: db.url,
      ...env,
    });
    const timer = setTimeout(() => api.child.kill('SIGKILL'), 30_000);
    const code = await api.exited;
    clearTimeout(timer);
    return { code, output: api.stdout() + api.stderr() };
  };

  beforeAll(async () => {
    db = await createOwnDatabase('secrets');
    site = await startFixtureSite({ articles: 1 });
    receiver = await startReceiver();
    t = await createTestApp({
      env: {
        DATABASE_URL: db.url,
        SECRETS_ENCRYPTION_KEY: k1,
        AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
        AUDIT_POLITENESS_DELAY_MS: '0',
      },
    });
    admin = new AdminClient(t.url);
    worker = await startWorker(t.config, t.clock);
  });

  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await receiver?.close();
    await site?.close();
    await db?.drop();
  });

  it('stored sealed, never in clear; a delivery is signed with the real secret; rows from before still sign', async () => {
    const acc = await admin.account('pro', POLLING_OVERRIDES);
    const secret = await secretOf(acc.id);
    expect(secret).toMatch(/^whsec_/);
    const row = await stored(acc.id);
    expect(row.secret).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    for (let i = 6; i + 8 <= secret.length; i += 8) {
      expect(row.secret).not.toContain(secret.slice(i, i + 8));
    }

    const hook = receiver.endpoint([200]);
    const res = await request(t.url)
      .post('/api/v1/site-audit')
      .set(bearer(acc.key))
      .send({ url: `${site.origin}/`, max_pages: 2, depth: 1, webhook_url: hook });
    expect(res.status).toBe(202);
    await waitForJob(t.url, acc.key, res.body.job_id, { intervalMs: 50 });
    const [got] = await until(
      async () => receiver.received(hook),
      (r) => r.length > 0,
    );
    expect(verifies(secret, got.headers, got.body)).toBe(true);

    // A row written before encryption (stored as it is) keeps working, and shows as it is.
    const legacy = await admin.account('pro', POLLING_OVERRIDES);
    const plain = `whsec_${randomBytes(32).toString('base64')}`;
    await t.db.query(
      `INSERT INTO webhook_secrets (account_id, secret, created_at) VALUES ($1, $2, now())`,
      [legacy.id, plain],
    );
    expect(await secretOf(legacy.id)).toBe(plain);
    // A rotation seals the new secret; the previous one (plaintext) still signs for a day.
    await t.app.get(WebhookSecretsService).rotate(legacy.id);
    const after = await stored(legacy.id);
    expect(after.secret).toMatch(/^enc:v1:/);
    expect(after.previous_secret).toBe(plain);
  });

  it('npm run secrets:rotate re-encrypts under a new key (plaintext rows too); the old key is still read; idempotent', async () => {
    const acc = await admin.account('pro');
    const secret = await secretOf(acc.id);
    const plainAcc = await admin.account('pro');
    const plain = `whsec_${randomBytes(32).toString('base64')}`;
    await t.db.query(
      `INSERT INTO webhook_secrets (account_id, secret, created_at) VALUES ($1, $2, now())`,
      [plainAcc.id, plain],
    );
    const first = rotateCli({ SECRETS_ENCRYPTION_KEY: k2, SECRETS_ENCRYPTION_KEYS_OLD: k1 });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/\d+ re-encrypted under the current key/);
    const kid2 = createHash('sha256').update(Buffer.from(k2, 'hex')).digest('hex').slice(0, 8);
    expect((await stored(acc.id)).secret).toMatch(new RegExp(`^enc:v1:${kid2}:`));
    expect((await stored(plainAcc.id)).secret).toMatch(new RegExp(`^enc:v1:${kid2}:`));
    const again = rotateCli({ SECRETS_ENCRYPTION_KEY: k2, SECRETS_ENCRYPTION_KEYS_OLD: k1 });
    expect(again.stdout).toContain('0 re-encrypted');
    for (const output of [first.stdout + first.stderr, again.stdout + again.stderr]) {
      expect(output).not.toContain(secret);
      expect(output).not.toContain(plain);
      expect(output).not.toContain(k1);
      expect(output).not.toContain(k2);
    }
    // The rows now need k2: an app configured with it (k1 as old) reads the same secrets.
    const next = await createTestApp({
      env: { DATABASE_URL: db.url, SECRETS_ENCRYPTION_KEY: k2, SECRETS_ENCRYPTION_KEYS_OLD: k1 },
    });
    try {
      const a = new AdminClient(next.url);
      expect((await a.get(`/accounts/${acc.id}/webhook-secret`)).body.data.secret).toBe(secret);
      expect((await a.get(`/accounts/${plainAcc.id}/webhook-secret`)).body.data.secret).toBe(plain);
    } finally {
      await next.close();
    }
    // Without the key the rows need, the rotation refuses (nothing changed).
    const missing = rotateCli({ SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/SECRETS_ENCRYPTION_KEY/);
  });

  it('start-up refuses without the keys the stored secrets need (production: without any key)', async () => {
    const prod = await startApi({ NODE_ENV: 'production', SECRETS_ENCRYPTION_KEY: '' });
    expect(prod.code).toBe(1);
    expect(prod.output).toContain('SECRETS_ENCRYPTION_KEY: required in production');
    expect(prod.output).not.toMatch(/\n\s+at /);
    const wrongKey = await startApi({ SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.output).toMatch(/encrypted with key id\(s\) [0-9a-f]{8}/);
    for (const r of [prod, wrongKey]) {
      expect(r.output).not.toContain(k1);
      expect(r.output).not.toContain(k2);
    }
  });
});
