import net from 'node:net';
import { Client } from 'pg';
import { metrics } from '@app/core';
import { DependencyHealth } from '@app/database';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';

/**
 * Issue 35: statement and lock bounds on the request path, readiness independent of the
 * request pool, admin ingestion batches under their own (longer) bound, HTTP server bounds a
 * slow client cannot stretch, and body limits by route (docs/reliability.md, "Timeouts").
 */

const POOL = 2;
const LOCK_MS = 500;
const STATEMENT_MS = 1500;

async function busyCount(reason: string): Promise<number> {
  const { values } = await metrics.dbBusy.get();
  return values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

/** Connections the tests open beside the app's pool; every one is ended after the file. */
const lockers: Client[] = [];
afterAll(() => Promise.all(lockers.map((c) => c.end().catch(() => undefined))));

async function locker(): Promise<Client> {
  const c = new Client({ connectionString: process.env.DATABASE_URL });
  c.on('error', () => undefined);
  lockers.push(c);
  await c.connect();
  return c;
}

describe('a held lock on the request path (DB_LOCK_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let lock: Client | undefined;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        DB_POOL_SIZE: String(POOL),
        DB_LOCK_TIMEOUT_MS: String(LOCK_MS),
        DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
        DB_BULK_STATEMENT_TIMEOUT_MS: '20000',
        // The answer phase is not bounded by the request timeout (the ingestion below waits 2 s).
        HTTP_HEADERS_TIMEOUT_MS: '1000',
        HTTP_REQUEST_TIMEOUT_MS: '1000',
      },
    });
    admin = new AdminClient(t.url);
  });
  afterAll(async () => {
    await t.close();
  });

  it('with the meter table locked, more blocked accounts than pool slots answer a clean 500 + Retry-After within the bound; /health/ready stays 200; all recover with exact meters', async () => {
    const accounts: TestAccount[] = [];
    for (let i = 0; i < POOL * 4; i++) accounts.push(await admin.account('pro'));
    for (const a of accounts) {
      const warm = await t.http().get('/api/v1/usage').set(bearer(a.key));
      expect(warm.status).toBe(200);
      expect(warm.body.data.api_calls_used).toBe(1);
    }
    const lockWaitsBefore = await busyCount('lock_not_available');

    lock = await locker();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE api_call_meter IN ACCESS EXCLUSIVE MODE');
    const started = Date.now();
    const blocked = Promise.all(
      accounts.map(async (a) => {
        const res = await t.http().get('/api/v1/usage').set(bearer(a.key));
        return { res, ms: Date.now() - started };
      }),
    );
    // Readiness while every pool slot waits on the lock: PostgreSQL answers, so 200.
    const readiness: number[] = [];
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const ready = await t.http().get('/health/ready');
      readiness.push(ready.status);
    }
    const answers = await blocked;
    const lockHeldMs = Date.now() - started;
    await lock.query('ROLLBACK');

    expect(readiness).toEqual([200, 200, 200, 200]);
    for (const { res, ms } of answers) {
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ success: false, error: { code: 'SERVER_ERROR' } });
      expect(res.headers['retry-after']).toBe('2');
      // POOL slots, each freed after LOCK_MS: the last of 4 rounds ends near 4 × LOCK_MS.
      expect(ms).toBeLessThan(4 * LOCK_MS + 2500);
    }
    expect(lockHeldMs).toBeLessThan(10_000);
    expect((await busyCount('lock_not_available')) - lockWaitsBefore).toBe(accounts.length);
    // Busy is not an outage: no "Dependency down", no probes.
    expect(t.app.get(DependencyHealth).isDown('postgres')).toBe(false);

    // Released: every account is served again, and the refused calls were never counted.
    for (const a of accounts) {
      const res = await t.http().get('/api/v1/usage').set(bearer(a.key));
      expect(res.status).toBe(200);
      expect(res.body.data.api_calls_used).toBe(2);
    }
    const meters = await t.db.query(
      'SELECT account_id, used FROM api_call_meter WHERE account_id = ANY($1::int[]) ORDER BY account_id',
      [accounts.map((a) => a.id)],
    );
    expect(meters.map((m: { used: number }) => m.used)).toEqual(accounts.map(() => 2));
  });

  it('a statement past DB_STATEMENT_TIMEOUT_MS is cancelled at the bound: 500 + Retry-After, counted as query_canceled, nothing counted', async () => {
    const acc = await admin.account('pro');
    const warm = await t.http().get('/api/v1/usage').set(bearer(acc.key));
    expect(warm.body.data.api_calls_used).toBe(1);
    const before = await busyCount('query_canceled');
    // A slow meter statement for this account only: a trigger that sleeps 5 s.
    const ddl = await locker();
    try {
      await ddl.query(`CREATE FUNCTION timeouts_e2e_sleep() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.account_id = ${acc.id} THEN PERFORM pg_sleep(5); END IF;
          RETURN NEW;
        END $$`);
      await ddl.query(`CREATE TRIGGER timeouts_e2e_sleep BEFORE INSERT OR UPDATE ON api_call_meter
        FOR EACH ROW EXECUTE FUNCTION timeouts_e2e_sleep()`);
      const started = Date.now();
      const res = await t.http().get('/api/v1/usage').set(bearer(acc.key));
      const ms = Date.now() - started;
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('SERVER_ERROR');
      expect(res.headers['retry-after']).toBe('2');
      expect(ms).toBeGreaterThanOrEqual(STATEMENT_MS - 100);
      expect(ms).toBeLessThan(STATEMENT_MS + 2000);
      expect((await busyCount('query_canceled')) - before).toBe(1);
    } finally {
      await ddl.query('DROP TRIGGER IF EXISTS timeouts_e2e_sleep ON api_call_meter');
      await ddl.query('DROP FUNCTION IF EXISTS timeouts_e2e_sleep()');
      await ddl.end();
    }
    const after = await t.http().get('/api/v1/usage').set(bearer(acc.key));
    expect(after.status).toBe(200);
    expect(after.body.data.api_calls_used).toBe(2);
  });

  it('each API connection carries the bounds', async () => {
    const rows = await t.db.query(
      `SELECT current_setting('statement_timeout') AS st, current_setting('lock_timeout') AS lt`,
    );
    expect(rows[0]).toEqual({ st: `${STATEMENT_MS}ms`, lt: `${LOCK_MS}ms` });
  });

  it('an admin ingestion batch waits for its row lock past the request bounds (bulk bound) and is stored; a request-path write on the same row is refused at the lock bound', async () => {
    const acc = await admin.account('pro');
    const project = await admin.post(`/accounts/${acc.id}/rank-projects`, {
      domain: 'locked.example',
      name: 'L',
    });
    const keyword = await admin.post(`/rank-projects/${project.body.data.id}/keywords`, {
      keyword: 'held',
      country: 'us',
      language: 'en',
      device: 'desktop',
    });
    expect(keyword.status).toBe(201);
    const keywordId = keyword.body.data.id as number;

    lock = await locker();
    await lock.query('BEGIN');
    await lock.query('SELECT id FROM tracked_keywords WHERE id = $1 FOR UPDATE', [keywordId]);
    const started = Date.now();
    const batch = admin.post(`/tracked-keywords/${keywordId}/checks`, {
      checks: [{ check_date: '2026-06-01', position: 4 }],
    });
    // The same row through a single request-path statement (the keyword upsert).
    const upsert = await admin.post(`/rank-projects/${project.body.data.id}/keywords`, {
      keyword: 'held',
      country: 'us',
      language: 'en',
      device: 'desktop',
      difficulty: 5,
    });
    const upsertMs = Date.now() - started;
    await new Promise((r) => setTimeout(r, STATEMENT_MS + 500 - (Date.now() - started)));
    await lock.query('COMMIT');
    const stored = await batch;
    const batchMs = Date.now() - started;

    expect(upsert.status).toBe(500);
    expect(upsert.headers['retry-after']).toBe('2');
    expect(upsertMs).toBeLessThan(LOCK_MS + 1500);
    expect(stored.status).toBe(200);
    expect(stored.body.data.stored).toBe(1);
    expect(batchMs).toBeGreaterThanOrEqual(STATEMENT_MS + 500);
    const [check] = await t.db.query('SELECT position FROM rank_checks WHERE keyword_id = $1', [
      keywordId,
    ]);
    expect(check.position).toBe(4);
    // The bulk bound ended with its transaction: the pool's connections keep their own.
    for (let i = 0; i < POOL; i++) {
      const [row] = await t.db.query(`SELECT current_setting('statement_timeout') AS st`);
      expect(row.st).toBe(`${STATEMENT_MS}ms`);
    }
  });
});

/** Reads a raw socket until the server closes it; resolves with what it answered and when. */
function rawExchange(
  port: number,
  head: string,
  trickle: string,
  everyMs: number,
): Promise<{ answer: string; closedAfterMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let i = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (i < trickle.length && !socket.destroyed) socket.write(trickle[i++]);
      }, everyMs);
    });
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, closedAfterMs: Date.now() - started });
    });
  });
}

describe('HTTP server bounds (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        HTTP_HEADERS_TIMEOUT_MS: '1000',
        HTTP_REQUEST_TIMEOUT_MS: '1500',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
      },
    });
    port = Number(new URL(t.url).port);
  });
  afterAll(() => t.close());

  it('a body trickled byte by byte is cut at the request timeout with a 408 envelope', async () => {
    const body = JSON.stringify({ keyword: 'x'.repeat(80) });
    const { answer, closedAfterMs } = await rawExchange(
      port,
      'POST /api/v1/keyword-research HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body, // ~90 bytes at one per 100 ms: 9 s if it were allowed to finish
      100,
    );
    // The bound counts from the request's start; Node checks it every second.
    expect(closedAfterMs).toBeGreaterThanOrEqual(1400);
    expect(closedAfterMs).toBeLessThan(4000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/"code":"BAD_REQUEST"/);
    expect(answer).toMatch(/Request timed out/);
  });

  it('headers trickled byte by byte are cut at the headers timeout', async () => {
    const { answer, closedAfterMs } = await rawExchange(
      port,
      'GET /health/live HTTP/1.1\r\n',
      'X-Slow: ' + 'a'.repeat(100) + '\r\n\r\n',
      100,
    );
    expect(closedAfterMs).toBeLessThan(3500);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('many slow bodies at once are all cut at the bound', async () => {
    const body = JSON.stringify({ keyword: 'y'.repeat(200) });
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        rawExchange(
          port,
          'POST /api/v1/keyword-research HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
          body,
          200,
        ),
      ),
    );
    for (const r of results) expect(r.closedAfterMs).toBeLessThan(4500);
  });

  it('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const { answer, closedAfterMs } = await rawExchange(
      port,
      'GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      '',
      1000,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(closedAfterMs).toBeLessThan(3500);
  });
});

describe('body limits by route (100 KB; 10 MB for admin ingestion with the admin token)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let acc: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    admin = new AdminClient(t.url);
    acc = await admin.account('pro');
  });
  afterAll(() => t.close());

  const meter = async (accountId: number): Promise<number> => {
    const rows = await t.db.query(
      'SELECT COALESCE(SUM(used), 0)::int AS n FROM api_call_meter WHERE account_id = $1',
      [accountId],
    );
    return rows[0].n as number;
  };

  it('a 200 KB body on a keyed public route: 413 PAYLOAD_TOO_LARGE in the envelope, not counted', async () => {
    const before = await meter(acc.id);
    const res = await t
      .http()
      .post('/api/v1/keyword-research')
      .set(bearer(acc.key))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ keyword: 'x'.repeat(200 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(await meter(acc.id)).toBe(before);
  });

  it('a body just under 100 KB on a public route is parsed (and judged by validation)', async () => {
    const res = await t
      .http()
      .post('/api/v1/keyword-research')
      .set(bearer(acc.key))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ keyword: 'x'.repeat(90 * 1024) }));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it.each(['/api/v1/keyword-research', '/account/v1/session', '/mcp'])(
    'an anonymous 10 MB body on %s: 413 PAYLOAD_TOO_LARGE, never parsed',
    async (path) => {
      const res = await t
        .http()
        .post(path)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: 'x'.repeat(10 * 1024 * 1024 - 20) }));
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    },
  );

  it('an anonymous 10 MB body on /register: 413 in the OAuth error shape, never parsed', async () => {
    const res = await t
      .http()
      .post('/register')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(10 * 1024 * 1024 - 20) }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      error: 'invalid_request',
      error_description: 'The request body is too large.',
    });
  });

  it('admin ingestion with the admin token accepts a 2 MB batch', async () => {
    const project = await admin.post(`/accounts/${acc.id}/rank-projects`, {
      domain: 'big.example',
      name: 'B',
    });
    const keyword = await admin.post(`/rank-projects/${project.body.data.id}/keywords`, {
      keyword: 'big',
      country: 'us',
      language: 'en',
      device: 'desktop',
    });
    const checks = Array.from({ length: 2000 }, (_, i) => ({
      check_date: `2026-05-${String((i % 28) + 1).padStart(2, '0')}`,
      position: (i % 100) + 1,
      landing_page: `https://big.example/${'p'.repeat(1000)}`,
    }));
    const body = JSON.stringify({ checks });
    expect(body.length).toBeGreaterThan(2 * 1024 * 1024);
    const res = await admin.post(`/tracked-keywords/${keyword.body.data.id}/checks`, {
      checks,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.stored).toBe(28);
  });

  it('the large limit is for the ingestion routes only: a 200 KB body on another admin route is 413', async () => {
    const res = await admin.post('/accounts', { name: 'x'.repeat(200 * 1024), plan: 'pro' });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it.each([
    ['no token', undefined],
    ['a wrong token', 'Bearer not-the-admin-token-at-all'],
    ['a customer key', 'customer'],
  ])(
    'a 10 MB admin ingestion body with %s is refused by the admin guard (401), its body never parsed',
    async (_label, authorization) => {
      let req = t
        .http()
        .post('/admin/v1/tracked-keywords/1/checks')
        .set('Content-Type', 'application/json');
      if (authorization === 'customer') req = req.set(bearer(acc.key));
      else if (authorization) req = req.set('Authorization', authorization);
      const res = await req.send(JSON.stringify({ checks: 'x'.repeat(10 * 1024 * 1024) }));
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    },
  );
});
