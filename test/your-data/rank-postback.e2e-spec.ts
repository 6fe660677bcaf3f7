import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { AppConfig } from '@app/core';
import { Sql } from '@app/database';
import { SERP_POSTBACK_PATH, createSerpProvider, postbackToken } from '@app/providers';
import { FakeSerpQueue, taskCost } from '../fixtures/fake-serp-queue';
import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createOwnDatabase } from '../helpers/own-database';
import { TestApp, createTestApp } from '../helpers/test-app';
import {
  YourDataAdmin,
  expectOk,
  get,
  rankWorker,
  trackingProject as trackedProject,
} from './your-data-fixtures';

const SECRET = 'postback-secret-for-tests-0123456789abcdef';

/**
 * Rank collection by postback (docs/rank-collection.md, "Postbacks"): the worker posts tasks
 * with a postback_url, the fake SERP queue POSTs each finished task's result (gzip) to the
 * API's receiver, which stores it through collect's store path. No task_get for them;
 * stored once however often and by whichever way a result arrives; anything refused or
 * failed on our side leaves the task to tasks_ready, which collect drains.
 */
describe('rank collection by postback', () => {
  const fake = new FakeSerpQueue();
  let t: TestApp;
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let admin: AdminClient;
  let yd: YourDataAdmin;
  let sql: Sql;
  let config: AppConfig;
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    await fake.start();
    db = await createOwnDatabase('rankpostback');
    t = await createTestApp({
      env: fake.env({
        DATABASE_URL: db.url,
        RANK_CHECK_DEPTH: '100',
        RANK_POSTBACK_SECRET: SECRET,
      }),
    });
    admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
    sql = t.app.get(Sql);
    // The worker's configuration: postbacks to this API.
    config = {
      ...t.config,
      rankCollection: { ...t.config.rankCollection, postback: { baseUrl: t.url, secret: SECRET } },
    };
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
    fake.readyAfterMs = 0;
    fake.postbackRawGzip = false;
  });
  afterAll(async () => {
    await t?.close();
    await fake.close();
    await db?.drop();
  });

  const worker = (c: AppConfig = config) => rankWorker(t, c);
  const trackingProject = (domain: string) => trackedProject(admin, cleanups, domain);

  const taskRow = (keywordId: number) =>
    sql.one<{ state: string; task_id: string | null; cost: string; tag: string }>(
      `SELECT state, task_id, cost::text,
         'rk:' || keyword_id || ':' || to_char(check_date, 'YYYY-MM-DD') || ':' || attempts AS tag
       FROM rank_serp_tasks WHERE keyword_id = $1 ORDER BY check_date DESC LIMIT 1`,
      [keywordId],
    );
  const checkCount = async (keywordId: number) =>
    (await sql.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM rank_checks WHERE keyword_id = $1`,
      [keywordId],
    ))!.n;
  const spend = (accountId: number) =>
    sql.one<{ tasks: number; usd: string }>(
      `SELECT coalesce(sum(tasks), 0)::int AS tasks, coalesce(sum(usd), 0)::text AS usd
       FROM provider_spend WHERE account_id = $1`,
      [accountId],
    );
  const readyIds = async () =>
    (await createSerpProvider(config, t.clock).tasksReady()).map((r) => r.id);

  /** POSTs a postback to the API as the provider would (gzip unless told), with the task's own URL by default. */
  async function postback(
    body: Buffer,
    query: { id?: string; tag?: string; token?: string },
    headers: Record<string, string> = { 'Content-Encoding': 'gzip' },
  ) {
    const q = new URLSearchParams(
      Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined),
    );
    return fetch(`${t.url}${SERP_POSTBACK_PATH}?${q}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
    }).then(async (res) => ({
      status: res.status,
      body: (await res.json()) as {
        success: boolean;
        data: { task_id: string; outcome: string };
        error?: { code: string };
      },
    }));
  }

  /** Posts the project's due keywords with postbacks held back (ready in an hour): tasks posted, not yet finished. */
  async function postedAwaiting(domain: string, words: string[]) {
    const p = await trackingProject(domain);
    const ids: number[] = [];
    for (const w of words) ids.push(await yd.keyword(p.projectId, w));
    fake.readyAfterMs = 3_600_000;
    await worker().postDue();
    fake.readyAfterMs = 0;
    const rows = await Promise.all(ids.map((id) => taskRow(id)));
    return { ...p, ids, rows: rows.map((r) => r!) };
  }

  const envelopeOf = (taskId: string) => Buffer.from(JSON.stringify(fake.postbackEnvelope(taskId)));

  async function keywordEntry(acc: TestAccount, keywordId: number) {
    const res = await get(t, acc, '/api/v1/rank/keywords');
    expectOk(res);
    return (res.body.data.keywords as Array<Record<string, unknown>>).find(
      (k) => k.keyword_id === keywordId,
    );
  }

  it('keywords are checked end to end by postback: stored, no task_get, not in tasks_ready, spend once', async () => {
    const { acc, projectId } = await trackingProject('postback-gear.com');
    fake.serps.set('pb boots', {
      rank: 4,
      host: 'www.postback-gear.com',
      features: ['featured_snippet', 'people_also_ask'],
    });
    fake.taskCodes.set('pb nothing', 40102);
    const words = [
      'pb boots',
      'pb nothing',
      ...Array.from({ length: 28 }, (_, i) => `pb word ${i}`),
    ];
    const ids: number[] = [];
    for (const w of words) ids.push(await yd.keyword(projectId, w, { status: 'pending' }));
    const getsBefore = fake.taskGets.length;

    const posted = await worker().postDue();
    expect(posted.posted).toBe(words.length);
    for (const p of fake.posts.flat().filter((p) => words.includes(String(p.keyword)))) {
      expect(p.postback_data).toBe('advanced');
      expect(String(p.postback_url)).toMatch(
        new RegExp(
          `^${t.url}${SERP_POSTBACK_PATH}\\?id=\\$id&tag=rk%3A\\d+%3A[\\d-]+%3A1&token=[\\w-]{43}$`,
        ),
      );
    }
    await fake.postbacksSettled();
    const rows = await Promise.all(ids.map((id) => taskRow(id)));
    expect(rows.map((r) => r?.state)).toEqual(words.map(() => 'collected'));
    const answered = fake.postbacks.filter((p) => rows.some((r) => r?.task_id === p.id));
    expect(answered).toHaveLength(words.length);
    expect(answered.every((p) => p.status === 200)).toBe(true);

    // No task_get for any of them, and tasks_ready does not list them (their postbacks were taken).
    expect(fake.taskGets.slice(getsBefore)).toEqual([]);
    const ready = await readyIds();
    expect(rows.filter((r) => ready.includes(r!.task_id!))).toEqual([]);
    const collected = await worker().collect();
    expect(collected.collected).toBe(0);
    expect(fake.taskGets.slice(getsBefore)).toEqual([]);

    expect(await keywordEntry(acc, ids[0])).toMatchObject({
      status: 'active',
      current_position: 4,
      landing_page: 'https://www.postback-gear.com/pb%20boots',
      featured_snippet: true,
    });
    expect(await keywordEntry(acc, ids[1])).toMatchObject({
      status: 'active',
      current_position: null,
    });
    for (const id of ids) expect(await checkCount(id)).toBe(1);
    // Spend booked once, at task_post: tasks × the documented price.
    const s = await spend(acc.id);
    expect(s?.tasks).toBe(words.length);
    expect(Number(s?.usd)).toBeCloseTo(words.length * taskCost(100), 6);
  });

  it('duplicate postbacks (sent again, and several at once) store the check once', async () => {
    const { acc, ids, rows } = await postedAwaiting('postback-dupes.com', ['dup a', 'dup b']);
    // dup a: three copies at once.
    const copies = await Promise.all([1, 2, 3].map(() => fake.resendPostback(rows[0].task_id!)));
    expect(copies).toEqual([200, 200, 200]);
    expect(await checkCount(ids[0])).toBe(1);
    expect((await taskRow(ids[0]))?.state).toBe('collected');
    // dup b: once, then again later: the second is a known duplicate.
    expect(await fake.resendPostback(rows[1].task_id!)).toBe(200);
    const version = await sql.one<{ v: string }>(
      `SELECT version::text AS v FROM rank_versions WHERE account_id = $1`,
      [acc.id],
    );
    const again = await postback(gzipSync(envelopeOf(rows[1].task_id!)), {
      id: rows[1].task_id!,
      tag: rows[1].tag,
      token: postbackToken(SECRET, rows[1].tag),
    });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ task_id: rows[1].task_id, outcome: 'duplicate' });
    expect(await checkCount(ids[1])).toBe(1);
    // A duplicate writes nothing: the account's rank version did not move.
    expect(
      await sql.one<{ v: string }>(
        `SELECT version::text AS v FROM rank_versions WHERE account_id = $1`,
        [acc.id],
      ),
    ).toEqual(version);
    expect((await spend(acc.id))?.tasks).toBe(2);
  });

  it('a task arriving by postback and by tasks_ready (either order) is stored once', async () => {
    const { acc, ids, rows } = await postedAwaiting('postback-both.com', ['both a', 'both b']);
    const getsBefore = fake.taskGets.length;
    // both a: postback first (stored); then the provider lists it too (as when it gave up
    // waiting for our answer) and collect fetches it.
    expect(await fake.resendPostback(rows[0].task_id!)).toBe(200);
    // both b: collect first, then its postback.
    fake.listInTasksReady(rows[0].task_id!);
    fake.listInTasksReady(rows[1].task_id!);
    const ready = await readyIds();
    expect(ready).toEqual(expect.arrayContaining([rows[0].task_id, rows[1].task_id]));
    const run = await worker().collect();
    // both a is known collected: not even fetched. both b is fetched and stored.
    expect(fake.taskGets.slice(getsBefore)).toEqual([rows[1].task_id]);
    expect(run.collected).toBe(1);
    const late = await postback(gzipSync(envelopeOf(rows[1].task_id!)), {
      id: rows[1].task_id!,
      tag: rows[1].tag,
      token: postbackToken(SECRET, rows[1].tag),
    });
    expect(late.status).toBe(200);
    expect(late.body.data.outcome).toBe('duplicate');
    for (const id of ids) {
      expect(await checkCount(id)).toBe(1);
      expect((await taskRow(id))?.state).toBe('collected');
    }
    const s = await spend(acc.id);
    expect(s?.tasks).toBe(2);
    expect(Number(s?.usd)).toBeCloseTo(2 * taskCost(100), 6);
  });

  it("a wrong, missing or other task's token is refused (401) before the body is read; nothing stored", async () => {
    const { ids, rows } = await postedAwaiting('postback-auth.com', ['auth a', 'auth b']);
    const [a, b] = rows;
    const body = gzipSync(envelopeOf(a.task_id!));
    const tries = [
      {
        id: a.task_id!,
        tag: a.tag,
        token: postbackToken('another-secret-of-32-characters-xx', a.tag),
      },
      { id: a.task_id!, tag: a.tag, token: postbackToken(SECRET, b.tag) }, // b's token
      { id: a.task_id!, tag: a.tag, token: postbackToken(SECRET, a.tag).slice(0, 42) },
      { id: a.task_id!, tag: a.tag },
      { id: a.task_id!, token: postbackToken(SECRET, a.tag) },
      { id: a.task_id!, tag: 'not-a-tag', token: postbackToken(SECRET, 'not-a-tag') },
    ];
    for (const q of tries) {
      const res = await postback(body, q);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    }
    // b's URL with a's body: authentic URL, but the body is another task's.
    const swapped = await postback(body, {
      id: b.task_id!,
      tag: b.tag,
      token: postbackToken(SECRET, b.tag),
    });
    expect(swapped.status).toBe(400);
    // a's URL with b's id and a body of b relabelled with a's tag: b is not a's task to store.
    const relabelled = fake.postbackEnvelope(b.task_id!) as {
      tasks: Array<{ data: Record<string, unknown> }>;
    };
    relabelled.tasks[0].data.tag = a.tag;
    const forged = await postback(gzipSync(JSON.stringify(relabelled)), {
      id: b.task_id!,
      tag: a.tag,
      token: postbackToken(SECRET, a.tag),
    });
    expect(forged.status).toBe(404);
    for (const id of ids) {
      expect(await checkCount(id)).toBe(0);
      expect((await taskRow(id))?.state).toBe('posted');
    }
  });

  it('non-gzip, garbage, bomb and oversized bodies are refused (4xx), nothing stored; a raw gzip body without Content-Encoding is taken', async () => {
    const { ids, rows } = await postedAwaiting('postback-bodies.com', ['body a']);
    const [a] = rows;
    const q = { id: a.task_id!, tag: a.tag, token: postbackToken(SECRET, a.tag) };
    const json = envelopeOf(a.task_id!);
    const cases: Array<[string, Buffer, Record<string, string>, number]> = [
      ['plain JSON', json, {}, 415],
      ['plain JSON labelled gzip', json, { 'Content-Encoding': 'gzip' }, 415],
      ['brotli', json, { 'Content-Encoding': 'br' }, 415],
      [
        'gzip magic then garbage',
        Buffer.concat([Buffer.from([0x1f, 0x8b]), randomBytes(500)]),
        { 'Content-Encoding': 'gzip' },
        400,
      ],
      ['gzip of text', gzipSync('not json at all'), { 'Content-Encoding': 'gzip' }, 400],
      [
        'gzip of JSON without tasks',
        gzipSync(JSON.stringify({ status_code: 20000 })),
        { 'Content-Encoding': 'gzip' },
        400,
      ],
      [
        'decompression bomb (17 MB of zeros)',
        gzipSync(Buffer.alloc(17 * 1024 * 1024)),
        { 'Content-Encoding': 'gzip' },
        413,
      ],
      [
        'oversized as sent (5 MB)',
        randomBytes(5 * 1024 * 1024),
        { 'Content-Encoding': 'gzip' },
        413,
      ],
    ];
    for (const [name, body, headers, status] of cases) {
      const res = await postback(body, q, headers);
      expect({ name, status: res.status }).toEqual({ name, status });
      expect(res.body.success).toBe(false);
      expect(await checkCount(ids[0])).toBe(0);
    }
    expect((await taskRow(ids[0]))?.state).toBe('posted');
    // The same task, raw gzip without Content-Encoding: stored.
    fake.postbackRawGzip = true;
    expect(await fake.resendPostback(a.task_id!)).toBe(200);
    expect(await checkCount(ids[0])).toBe(1);
  });

  it('our store failing answers 5xx; the provider lists the task in tasks_ready and collect stores it', async () => {
    const { acc, projectId } = await trackingProject('postback-fails.com');
    const ok = await yd.keyword(projectId, 'fail ok');
    const bad = await yd.keyword(projectId, 'fail bad');
    // The rank write path refuses this keyword's check (as a lost connection or a full disk would).
    await sql.run(`CREATE OR REPLACE FUNCTION test_refuse_check() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'injected store failure'; END $$ LANGUAGE plpgsql`);
    await sql.run(`CREATE TRIGGER test_refuse_check BEFORE INSERT OR UPDATE ON rank_checks
      FOR EACH ROW WHEN (NEW.keyword_id = ${bad}) EXECUTE FUNCTION test_refuse_check()`);
    cleanups.push(() => sql.run(`DROP TRIGGER IF EXISTS test_refuse_check ON rank_checks`));
    const getsBefore = fake.taskGets.length;

    await worker().postDue();
    await fake.postbacksSettled();
    const okRow = await taskRow(ok);
    const badRow = await taskRow(bad);
    expect(okRow?.state).toBe('collected');
    expect(badRow?.state).toBe('posted');
    expect(fake.postbacks.find((p) => p.id === badRow!.task_id)?.status).toBe(503);
    expect(await checkCount(bad)).toBe(0);
    expect(await readyIds()).toContain(badRow!.task_id);

    await sql.run(`DROP TRIGGER test_refuse_check ON rank_checks`);
    const run = await worker().collect();
    expect(run.collected).toBe(1);
    expect(fake.taskGets.slice(getsBefore)).toEqual([badRow!.task_id]);
    expect((await taskRow(bad))?.state).toBe('collected');
    expect(await checkCount(bad)).toBe(1);
    expect(await checkCount(ok)).toBe(1);
    const s = await spend(acc.id);
    expect(s?.tasks).toBe(2);
    expect(Number(s?.usd)).toBeCloseTo(2 * taskCost(100), 6);
  });

  it('postbacks off (no RANK_POSTBACK_BASE_URL): tasks are posted without postback_url and collected by task_get', async () => {
    const { projectId } = await trackingProject('postback-off.com');
    const kw = await yd.keyword(projectId, 'off keyword');
    const off = {
      ...config,
      rankCollection: {
        ...config.rankCollection,
        postback: { baseUrl: undefined, secret: SECRET },
      },
    };
    await worker(off).postDue();
    const sent = fake.posts.flat().find((p) => p.keyword === 'off keyword')!;
    expect(sent.postback_url).toBeUndefined();
    expect(sent.postback_data).toBeUndefined();
    const row = await taskRow(kw);
    await worker(off).collect();
    expect(fake.taskGets).toContain(row!.task_id);
    expect((await taskRow(kw))?.state).toBe('collected');
  });
});
