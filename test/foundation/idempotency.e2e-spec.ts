import net from 'node:net';
import Redis from 'ioredis';
import { SeoApiClient } from '@seo-api/client';
import { IdempotencyKeysRepository } from '@app/database';
import { requestHash } from '@app/gateway';
import { IdempotencyPurgeService } from '../../apps/worker/src/idempotency-purge.service';
import { ChaosRedis } from '../chaos/chaos-helpers';
import { FakeDataForSeo } from '../fixtures/fake-dataforseo';
import { AdminClient, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { ROOMY, usageOf } from '../research/research-helpers';

const RELATED = '/v3/dataforseo_labs/google/related_keywords/live';
/** A crawl target that is never fetched: no worker runs in these tests, jobs stay queued. */
const AUDIT = { url: 'http://127.0.0.1:9/', max_pages: 5 };

/**
 * Idempotency-Key on every POST under /api/v1 (issue 35; docs/api.md "Idempotency-Key"):
 * replay of the first answer, 422 for another route or body, 409 while the first runs,
 * malformed keys, what is kept and what is not, the monthly meter, 24 hours, the lease of an
 * abandoned claim, the purge, eight concurrent duplicates and a replay after a Redis restart.
 */
describe('Idempotency-Key on POST under /api/v1', () => {
  const fake = new FakeDataForSeo();
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    await fake.start();
    fake.slowMs = 1500;
    t = await createTestApp({
      now: '2026-03-10T12:00:00Z',
      env: fake.env({
        DATAFORSEO_TIMEOUT_MS: '5000',
        AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
        RATE_LIMIT_WINDOW_SECONDS: '2',
      }),
    });
    admin = new AdminClient(t.url);
  });
  afterAll(async () => {
    await t?.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  const audit = (key: string, idem?: string, body: unknown = AUDIT) => {
    const r = t.http().post('/api/v1/site-audit').set(bearer(key));
    if (idem !== undefined) r.set('Idempotency-Key', idem);
    return r.send(body as object);
  };
  const research = (key: string, idem: string | undefined, body: unknown) => {
    const r = t.http().post('/api/v1/keyword-research').set(bearer(key));
    if (idem !== undefined) r.set('Idempotency-Key', idem);
    return r.send(body as object);
  };
  const count = async (sql: string, params: unknown[]) =>
    Number((await t.db.query(sql, params))[0].n);
  const jobsOf = (accountId: number) =>
    count('SELECT count(*)::int AS n FROM jobs WHERE account_id = $1', [accountId]);
  const meterOf = (accountId: number) =>
    count('SELECT coalesce(sum(used), 0)::int AS n FROM api_call_meter WHERE account_id = $1', [
      accountId,
    ]);
  const keptRows = (accountId: number, key: string) =>
    t.db.query('SELECT state, status FROM idempotency_keys WHERE account_id = $1 AND key = $2', [
      accountId,
      key,
    ]) as Promise<Array<{ state: string; status: number | null }>>;
  const relatedCalls = () => fake.requests.filter((r) => r.path === RELATED).length;

  describe('no header', () => {
    it('nothing changes: two identical POSTs start two crawls, no Idempotent-Replayed', async () => {
      const acct = await admin.account('pro', ROOMY);
      const a = await audit(acct.key);
      const b = await audit(acct.key);
      expect([a.status, b.status]).toEqual([202, 202]);
      expect(a.body.job_id).not.toBe(b.body.job_id);
      expect(a.headers['idempotent-replayed']).toBeUndefined();
      expect(b.headers['idempotent-replayed']).toBeUndefined();
      expect(await jobsOf(acct.id)).toBe(2);
      expect(
        await count('SELECT count(*)::int AS n FROM idempotency_keys WHERE account_id = $1', [
          acct.id,
        ]),
      ).toBe(0);
    });

    it('a GET ignores the header, even a malformed one', async () => {
      const acct = await admin.account('pro', ROOMY);
      const res = await t
        .http()
        .get('/api/v1/usage')
        .set(bearer(acct.key))
        .set('Idempotency-Key', 'x'.repeat(300));
      expect(res.status).toBe(200);
    });
  });

  describe('a repeat of the same request', () => {
    it('answers the first answer again (status, bytes, Location) with Idempotent-Replayed: true; starts and charges nothing; counts as a call', async () => {
      const acct = await admin.account('pro', ROOMY);
      const first = await audit(acct.key, 'audit-1');
      expect(first.status).toBe(202);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const usage = await usageOf(admin, acct.id);
      const meter = await meterOf(acct.id);

      const again = await audit(acct.key, 'audit-1');
      expect(again.status).toBe(202);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(first.text);
      expect(again.headers.location).toBe(first.headers.location);
      expect(again.headers['content-type']).toBe(first.headers['content-type']);
      expect(await jobsOf(acct.id)).toBe(1);
      expect(await usageOf(admin, acct.id)).toEqual({
        ...usage,
        api_calls_per_month: usage.api_calls_per_month + 1,
      });
      expect(await meterOf(acct.id)).toBe(meter + 1);
      expect(await keptRows(acct.id, 'audit-1')).toEqual([{ state: 'complete', status: 202 }]);
    });

    it('keyword research: the second answer is the first (no fetch, no quota unit)', async () => {
      const acct = await admin.account('agency', ROOMY);
      const body = { keyword: 'trail shoes', limit: 3 };
      const first = await research(acct.key, 'kr-1', body);
      expect(first.status).toBe(200);
      const fetched = relatedCalls();
      expect(fetched).toBeGreaterThan(0);
      const quota = (await usageOf(admin, acct.id)).keyword_research_per_month;
      const again = await research(acct.key, 'kr-1', body);
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(first.text);
      expect(relatedCalls()).toBe(fetched);
      expect((await usageOf(admin, acct.id)).keyword_research_per_month).toBe(quota);
    });

    it('the body is compared as parsed JSON: member order and spacing do not matter', async () => {
      const acct = await admin.account('pro', ROOMY);
      const first = await audit(acct.key, 'order-1', { url: AUDIT.url, max_pages: 5 });
      const again = await t
        .http()
        .post('/api/v1/site-audit')
        .set(bearer(acct.key))
        .set('Idempotency-Key', 'order-1')
        .set('Content-Type', 'application/json')
        .send(`{ "max_pages" : 5,\n  "url": "http:\\/\\/127.0.0.1:9\\/" }`);
      expect(again.status).toBe(202);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.job_id).toBe(first.body.job_id);
      expect(await jobsOf(acct.id)).toBe(1);
    });

    it('keys belong to one account: the same key of another account runs', async () => {
      const a = await admin.account('pro', ROOMY);
      const b = await admin.account('pro', ROOMY);
      const first = await audit(a.key, 'shared-key');
      const other = await audit(b.key, 'shared-key');
      expect(other.status).toBe(202);
      expect(other.headers['idempotent-replayed']).toBeUndefined();
      expect(other.body.job_id).not.toBe(first.body.job_id);
    });
  });

  describe('the same key with another request', () => {
    it('another body → 422 VALIDATION_ERROR saying so; nothing started', async () => {
      const acct = await admin.account('pro', ROOMY);
      expect((await audit(acct.key, 'k-body')).status).toBe(202);
      const res = await audit(acct.key, 'k-body', { ...AUDIT, max_pages: 6 });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toMatch(/another request body/);
      expect(res.body.error.details).toEqual([
        { field: 'Idempotency-Key', message: res.body.error.message },
      ]);
      expect(await jobsOf(acct.id)).toBe(1);
    });

    it('another route → 422 VALIDATION_ERROR naming the first route; nothing fetched', async () => {
      const acct = await admin.account('agency', ROOMY);
      expect((await audit(acct.key, 'k-route')).status).toBe(202);
      const res = await research(acct.key, 'k-route', { keyword: 'shoes' });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toMatch(/another route \(POST \/api\/v1\/site-audit\)/);
      expect(relatedCalls()).toBe(0);
    });
  });

  describe('what is kept', () => {
    it('a 422 of the handler’s validation reached the handler: kept and replayed', async () => {
      const acct = await admin.account('agency', ROOMY);
      const first = await research(acct.key, 'bad-body', { keyword: '' });
      expect(first.status).toBe(422);
      const again = await research(acct.key, 'bad-body', { keyword: '' });
      expect(again.status).toBe(422);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(first.text);
    });

    it('a 5xx is not kept: a retry runs again, then its answer is kept', async () => {
      const acct = await admin.account('agency', ROOMY);
      const body = { keyword: 'failing shoes' };
      fake.failNext(RELATED, { http: 500 }, { http: 500 }, { http: 500 });
      const failed = await research(acct.key, 'retry-5xx', body);
      expect(failed.status).toBe(502);
      expect(await keptRows(acct.id, 'retry-5xx')).toEqual([]);
      const before = relatedCalls();
      const retried = await research(acct.key, 'retry-5xx', body);
      expect(retried.status).toBe(200);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(relatedCalls()).toBeGreaterThan(before);
      const replay = await research(acct.key, 'retry-5xx', body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.text).toBe(retried.text);
    });

    it('401 and 403 are not kept', async () => {
      const unknownKey = `seo_live_${'A'.repeat(43)}`;
      const res = await audit(unknownKey, 'refused-401');
      expect(res.status).toBe(401);
      expect(
        await count('SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1', [
          'refused-401',
        ]),
      ).toBe(0);
      const starter = await admin.account('starter');
      expect((await audit(starter.key, 'refused-403')).status).toBe(403);
      expect(await keptRows(starter.id, 'refused-403')).toEqual([]);
    });

    it('a per-minute 429 is not kept: the retry after the window runs', async () => {
      const acct = await admin.account('pro', {
        api_calls_per_month: 'unlimited',
        requests_per_minute: 1,
      });
      expect((await audit(acct.key, 'rl-a')).status).toBe(202);
      const limited = await audit(acct.key, 'rl-b');
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(await keptRows(acct.id, 'rl-b')).toEqual([]);
      await new Promise((r) => setTimeout(r, Number(limited.body.meta.retry_after) * 1000 + 100));
      const retried = await audit(acct.key, 'rl-b');
      expect(retried.status).toBe(202);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(await jobsOf(acct.id)).toBe(2);
    });

    it('the monthly cap applies to a repeat as to any call; a refused request keeps nothing', async () => {
      const acct = await admin.account('pro', {
        api_calls_per_month: 2,
        requests_per_minute: 100_000,
      });
      expect((await audit(acct.key, 'cap-a')).status).toBe(202);
      const replay = await audit(acct.key, 'cap-a');
      expect(replay.status).toBe(202);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      const capped = await audit(acct.key, 'cap-a');
      expect(capped.status).toBe(429);
      expect(capped.body.meta.resets_at).toBeDefined();
      const refused = await audit(acct.key, 'cap-b');
      expect(refused.status).toBe(429);
      expect(await keptRows(acct.id, 'cap-b')).toEqual([]);
      expect(await jobsOf(acct.id)).toBe(1);
    });
  });

  describe('concurrency', () => {
    it('while the first still runs: 409 ALREADY_RUNNING, then the replay', async () => {
      const acct = await admin.account('agency', ROOMY);
      const body = { keyword: 'slow running shoes' };
      const first = Promise.resolve(research(acct.key, 'running-1', body)); // sent now
      await new Promise((r) => setTimeout(r, 500));
      const during = await research(acct.key, 'running-1', body);
      expect(during.status).toBe(409);
      expect(during.body.error.code).toBe('ALREADY_RUNNING');
      const done = await first;
      expect(done.status).toBe(200);
      const after = await research(acct.key, 'running-1', body);
      expect(after.headers['idempotent-replayed']).toBe('true');
      expect(after.text).toBe(done.text);
    });

    it('eight concurrent duplicates of keyword research: one fetch, one quota unit, eight calls counted', async () => {
      const acct = await admin.account('agency', ROOMY);
      // What one research of this shape fetches upstream, measured without a key.
      await research(acct.key, undefined, { keyword: 'slow baseline shoes' });
      const perResearch = relatedCalls();
      fake.reset();
      const quota = (await usageOf(admin, acct.id)).keyword_research_per_month;
      const meter = await meterOf(acct.id);

      const body = { keyword: 'slow concurrent shoes', limit: 5 };
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => research(acct.key, 'eight-kr', body)),
      );
      const ran = answers.filter((a) => a.status === 200 && !a.headers['idempotent-replayed']);
      expect(ran).toHaveLength(1);
      for (const a of answers) {
        if (a === ran[0]) continue;
        if (a.status === 409) expect(a.body.error.code).toBe('ALREADY_RUNNING');
        else
          expect([a.status, a.headers['idempotent-replayed'], a.text]).toEqual([
            200,
            'true',
            ran[0].text,
          ]);
      }
      expect(relatedCalls()).toBe(perResearch);
      expect((await usageOf(admin, acct.id)).keyword_research_per_month).toBe(quota + 1);
      expect(await meterOf(acct.id)).toBe(meter + 8);
      // A ninth, after them all: the kept answer (not a cache hit of a new run).
      const ninth = await research(acct.key, 'eight-kr', body);
      expect(ninth.headers['idempotent-replayed']).toBe('true');
      expect(ninth.text).toBe(ran[0].text);
    });

    it('eight concurrent duplicates of a site audit: exactly one crawl', async () => {
      const acct = await admin.account('pro', ROOMY);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => audit(acct.key, 'eight-audit')),
      );
      const started = answers.filter((a) => a.status === 202 && !a.headers['idempotent-replayed']);
      expect(started).toHaveLength(1);
      for (const a of answers) {
        if (a === started[0]) continue;
        if (a.status === 409) expect(a.body.error.code).toBe('ALREADY_RUNNING');
        else expect([a.status, a.text]).toEqual([202, started[0].text]);
      }
      expect(await jobsOf(acct.id)).toBe(1);
    });
  });

  describe('time', () => {
    it('a claim left running by a killed process blocks until its lease ends, then the retry runs', async () => {
      const acct = await admin.account('pro', ROOMY);
      const now = t.clock.now();
      const hash = requestHash({ params: {}, query: {}, body: AUDIT });
      await t.db.query(
        `INSERT INTO idempotency_keys (account_id, key, route, request_hash, state, claim, locked_until, created_at, expires_at)
         VALUES ($1, 'killed-1', 'POST /api/v1/site-audit', $2, 'running', gen_random_uuid(), $3, $4, $5)`,
        [
          acct.id,
          hash,
          new Date(now.getTime() + 60_000),
          now,
          new Date(now.getTime() + 86_400_000),
        ],
      );
      const blocked = await audit(acct.key, 'killed-1');
      expect(blocked.status).toBe(409);
      expect(blocked.body.error.code).toBe('ALREADY_RUNNING');
      t.clock.advance(61_000);
      const taken = await audit(acct.key, 'killed-1');
      expect(taken.status).toBe(202);
      expect(taken.headers['idempotent-replayed']).toBeUndefined();
      expect(await keptRows(acct.id, 'killed-1')).toEqual([{ state: 'complete', status: 202 }]);
      expect(await jobsOf(acct.id)).toBe(1);
    });

    it('after 24 hours the key is new again; the worker purges expired keys only', async () => {
      const acct = await admin.account('pro', ROOMY);
      const first = await audit(acct.key, 'day-1');
      t.clock.advance(24 * 3_600_000 - 1000);
      const stillKept = await audit(acct.key, 'day-1');
      expect(stillKept.headers['idempotent-replayed']).toBe('true');
      expect((await audit(acct.key, 'day-2')).status).toBe(202);
      t.clock.advance(2000);

      const purge = new IdempotencyPurgeService(t.app.get(IdempotencyKeysRepository), t.clock);
      expect(await purge.runOnce()).toBeGreaterThanOrEqual(1);
      expect(await keptRows(acct.id, 'day-1')).toEqual([]);
      expect(await keptRows(acct.id, 'day-2')).toEqual([{ state: 'complete', status: 202 }]);

      const again = await audit(acct.key, 'day-1');
      expect(again.status).toBe(202);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body.job_id).not.toBe(first.body.job_id);
      expect(await jobsOf(acct.id)).toBe(3);
    });

    it('an expired key not purged yet is taken over by the next request', async () => {
      const acct = await admin.account('pro', ROOMY);
      await audit(acct.key, 'late-1');
      t.clock.advance(24 * 3_600_000 + 1000);
      const res = await audit(acct.key, 'late-1', { ...AUDIT, max_pages: 7 });
      expect(res.status).toBe(202);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(await jobsOf(acct.id)).toBe(2);
    });
  });

  describe('malformed keys → 422 VALIDATION_ERROR, nothing started', () => {
    let acct: Awaited<ReturnType<AdminClient['account']>>;
    beforeAll(async () => {
      acct = await admin.account('pro', ROOMY);
    });

    it.each([
      ['empty', ''],
      ['256 characters', 'k'.repeat(256)],
      ['a tab inside', 'a\tb'],
    ])('%s', async (_name, key) => {
      const res = await audit(acct.key, key);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details[0].field).toBe('Idempotency-Key');
      expect(await jobsOf(acct.id)).toBe(0);
    });

    /** A request written byte by byte (header bytes a client library would refuse to send). */
    const raw = (headerBytes: Buffer[]): Promise<{ status: number; text: string }> => {
      const port = Number(new URL(t.url).port);
      const body = Buffer.from(JSON.stringify(AUDIT));
      const head = Buffer.concat([
        Buffer.from(
          `POST /api/v1/site-audit HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${acct.key}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n`,
        ),
        ...headerBytes.flatMap((h) => [h, Buffer.from('\r\n')]),
        Buffer.from('\r\n'),
      ]);
      return new Promise((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () =>
          socket.write(Buffer.concat([head, body])),
        );
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('error', reject);
        socket.on('close', () => {
          const text = Buffer.concat(chunks).toString('latin1');
          resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
        });
      });
    };
    const header = (value: Buffer) => Buffer.concat([Buffer.from('Idempotency-Key: '), value]);

    it.each([
      ['non-ASCII (Latin-1 é)', Buffer.from([0x6b, 0xe9, 0x79])],
      ['non-ASCII (UTF-8 ключ)', Buffer.from('ключ', 'utf8')],
    ])('%s', async (_name, value) => {
      const res = await raw([header(value)]);
      expect(res.status).toBe(422);
      expect(res.text).toContain('"VALIDATION_ERROR"');
      expect(await jobsOf(acct.id)).toBe(0);
    });

    it.each([
      ['SOH', 0x01],
      ['DEL', 0x7f],
      ['NUL', 0x00],
    ])(
      'a control character (%s) is refused (by the HTTP parser, 400) and starts nothing',
      async (_name, byte) => {
        const res = await raw([header(Buffer.from([0x6b, byte, 0x79]))]);
        expect(res.status).toBe(400);
        expect(await jobsOf(acct.id)).toBe(0);
      },
    );

    it('the header twice (which Node would join into one key) → 422', async () => {
      const res = await raw([header(Buffer.from('a')), header(Buffer.from('b'))]);
      expect(res.status).toBe(422);
      expect(res.text).toContain('once');
      expect(await jobsOf(acct.id)).toBe(0);
    });

    it('255 printable characters, spaces and symbols included, are a key', async () => {
      const key = ` !"#$%&'()*+,-./09:;<=>?@AZ[\\]^_\`az{|}~`.padEnd(255, 'x');
      const res = await audit(acct.key, key);
      expect(res.status).toBe(202);
      const again = await audit(acct.key, key);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await jobsOf(acct.id)).toBe(1);
    });
  });
});

describe('Idempotency-Key from the typed client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { AUDIT_ALLOW_PRIVATE_NETWORKS: 'true' } });
  });
  afterAll(() => t?.close());

  it('a POST whose answer was lost is retried with the same key: one crawl, the first job answered', async () => {
    const acct = await new AdminClient(t.url).account('pro', ROOMY);
    const sent: Array<string | null> = [];
    let lost = 0;
    // The first answer is lost on the way back (as a proxy's 503 with Retry-After), after
    // the server started the crawl; the client retries by itself.
    const fetchImpl = async (request: Request): Promise<Response> => {
      sent.push(request.headers.get('idempotency-key'));
      const answer = await fetch(request);
      if (lost++ > 0) return answer;
      return new Response(
        '{"success":false,"error":{"code":"SERVICE_UNAVAILABLE","message":"lost"},"meta":{}}',
        {
          status: 503,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '0' },
        },
      );
    };
    const client = new SeoApiClient({ apiKey: acct.key, baseUrl: t.url, fetch: fetchImpl });
    const job = await client.startSiteAudit(AUDIT);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]).toBe(sent[0]);
    const jobs = await t.db.query('SELECT id FROM jobs WHERE account_id = $1', [acct.id]);
    expect(jobs).toHaveLength(1);
    expect(job.job_id).toMatch(/^job_/);

    // A second logical call has a key of its own: a second crawl.
    const firstKey = sent[0];
    sent.length = 0;
    await client.startSiteAudit(AUDIT);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[0]).not.toBe(firstKey);
    const after = await t.db.query('SELECT id FROM jobs WHERE account_id = $1', [acct.id]);
    expect(after).toHaveLength(2);

    // A key of the caller's own: the call is a replay of the first.
    const mine = await client.startSiteAudit(AUDIT, { idempotencyKey: 'my-key-1' });
    const again = await client.startSiteAudit(AUDIT, { idempotencyKey: 'my-key-1' });
    expect(again.job_id).toBe(mine.job_id);
  });
});

describe('Idempotency-Key: a replay after a Redis restart', () => {
  let redis: ChaosRedis;
  let t: TestApp;

  beforeAll(async () => {
    redis = await ChaosRedis.start();
    t = await createTestApp({
      env: { REDIS_URL: redis.url, AUDIT_ALLOW_PRIVATE_NETWORKS: 'true' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.down();
  });

  it('keys live in PostgreSQL: an emptied Redis neither replays nor repeats a start', async () => {
    const admin = new AdminClient(t.url);
    const acct = await admin.account('pro', ROOMY);
    const post = () =>
      t
        .http()
        .post('/api/v1/site-audit')
        .set(bearer(acct.key))
        .set('Idempotency-Key', 'across-restart')
        .send(AUDIT);
    const first = await post();
    expect(first.status).toBe(202);
    const probe = new Redis(redis.url);
    await probe.set('marker', '1');
    probe.disconnect();

    await redis.down();
    await redis.up(); // no persistence: every key of Redis is gone
    const after = new Redis(redis.url);
    try {
      expect(await after.get('marker')).toBeNull();
    } finally {
      after.disconnect();
    }
    const deadline = Date.now() + 20_000;
    let again = await post();
    while (again.status >= 500 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      again = await post();
    }
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    const jobs = await t.db.query('SELECT count(*)::int AS n FROM jobs WHERE account_id = $1', [
      acct.id,
    ]);
    expect(jobs[0].n).toBe(1);
  });
});
