import request from 'supertest';
import { plainDate } from '@app/core';
import { RankChecksRepository, SerpTasksRepository, Sql } from '@app/database';
import { createSerpProvider } from '@app/providers';
import { RankCollectionService } from '../../apps/worker/src/rank-collection/rank-collection.service';
import { FakeSerpQueue } from '../fixtures/fake-serp-queue';
import { signIn } from '../helpers/account-session';
import { AdminClient, Plan, TestAccount, bearer } from '../helpers/fixtures';
import { createOwnDatabase } from '../helpers/own-database';
import { TestApp, createTestApp } from '../helpers/test-app';
import { GENEROUS, YourDataAdmin, expectOk } from './your-data-fixtures';

type Res = request.Response;
type Method = 'get' | 'post' | 'patch' | 'delete';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** The members of the spec's tracked keyword, in its order (GET /rank/keywords). */
const TRACKED_KEYWORD_MEMBERS = [
  'keyword_id',
  'keyword',
  'difficulty',
  'search_volume',
  'cpc',
  'country',
  'language',
  'device',
  'status',
  'project_id',
  'project_domain',
  'project_name',
  'last_checked',
  'current_position',
  'previous_position',
  'position_change',
  'landing_page',
  'gsc_clicks',
  'gsc_impressions',
  'gsc_ctr',
  'local_pack',
  'featured_snippet',
  'ai_overview',
];

/**
 * Rank tracking management (docs/rank-management.md; the contract's "Rank tracking:
 * management" and "Rules shared by every route below"): the public routes with the API key,
 * the same operations in the account area, the tracked_keywords limit (exact under
 * concurrency) and the project's `match` as the worker's matching reads it.
 */
describe('rank tracking management: /api/v1/rank/projects and /rank/keywords writes, and /account/v1', () => {
  const fake = new FakeSerpQueue();
  // Its own database: the worker test claims every due keyword of the database.
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let t: TestApp;
  let admin: AdminClient;
  let yd: YourDataAdmin;
  let sql: Sql;

  beforeAll(async () => {
    await fake.start();
    db = await createOwnDatabase('rankmanage');
    t = await createTestApp({ env: fake.env({ DATABASE_URL: db.url, RANK_CHECK_DEPTH: '100' }) });
    admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
    sql = t.app.get(Sql);
  });
  afterAll(async () => {
    await t?.close();
    await fake.close();
    await db?.drop();
  });

  /** A request with the account's key. */
  const api = (acc: TestAccount, method: Method, path: string, body?: unknown): Promise<Res> => {
    const req = request(t.url)[method](`/api/v1${path}`).set(bearer(acc.key));
    return (body === undefined ? req : req.send(body as object)) as unknown as Promise<Res>;
  };
  const account = (plan: Plan = 'pro', overrides: Record<string, unknown> = {}) =>
    admin.account(plan, { ...GENEROUS, ...overrides });
  async function project(acc: TestAccount, domain: string, extra: Record<string, unknown> = {}) {
    const res = await api(acc, 'post', '/rank/projects', { domain, ...extra });
    expectOk(res, 201);
    return res.body.data.project_id as number;
  }
  const keywordCount = async (accountId: number) =>
    (await sql.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM tracked_keywords WHERE account_id = $1`,
      [accountId],
    ))!.n;
  const fields = (res: Res) =>
    (res.body.error?.details as Array<{ field: string }> | undefined)?.map((d) => d.field);

  describe('projects', () => {
    it('POST creates a project (201) with the contract’s shape, domain normalised and defaults applied', async () => {
      const acc = await account();
      const res = await api(acc, 'post', '/rank/projects', {
        domain: '  HTTPS://WWW.Shoe-Shop.COM:8443/path/page?x=1#top ',
      });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body.data)).toEqual([
        'project_id',
        'domain',
        'name',
        'match',
        'tracking',
        'keywords_count',
        'created_at',
        'updated_at',
      ]);
      expect(res.body.data).toMatchObject({
        project_id: expect.any(Number),
        domain: 'shoe-shop.com',
        name: 'shoe-shop.com',
        match: 'domain',
        tracking: true,
        keywords_count: 0,
      });
      expect(res.body.data.created_at).toMatch(TIMESTAMP);
      expect(res.body.data.updated_at).toMatch(TIMESTAMP);
      expect(res.body.data.created_at).toBe(
        new Date(t.clock.now()).toISOString().slice(0, 19).replace('T', ' '),
      );
    });

    it('POST of a domain the account already tracks answers 200 with the same record, unchanged', async () => {
      const acc = await account();
      const first = await api(acc, 'post', '/rank/projects', {
        domain: 'again.com',
        name: 'First',
        match: 'exact_host',
        tracking: false,
      });
      expect(first.status).toBe(201);
      const again = await api(acc, 'post', '/rank/projects', {
        domain: 'http://www.again.com/',
        name: 'Second',
        match: 'domain',
        tracking: true,
      });
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(first.body.data);
      // Another account's project of the same domain is its own record.
      const other = await account();
      const theirs = await api(other, 'post', '/rank/projects', { domain: 'again.com' });
      expect(theirs.status).toBe(201);
      expect(theirs.body.data.project_id).not.toBe(first.body.data.project_id);
    });

    it('GET lists the account’s projects only, with keyword counts', async () => {
      const acc = await account();
      const a = await project(acc, 'list-a.com', { name: 'A' });
      const b = await project(acc, 'list-b.com', { match: 'exact_host', tracking: false });
      await api(acc, 'post', `/rank/projects/${a}/keywords`, { keywords: ['one', 'two'] });
      await project(await account(), 'list-c.com');
      const res = await api(acc, 'get', '/rank/projects');
      expect(res.status).toBe(200);
      expect(res.body.data.count).toBe(2);
      expect(
        res.body.data.projects.map((p: Record<string, unknown>) => [
          p.project_id,
          p.domain,
          p.name,
          p.match,
          p.tracking,
          p.keywords_count,
        ]),
      ).toEqual([
        [a, 'list-a.com', 'A', 'domain', true, 2],
        [b, 'list-b.com', 'list-b.com', 'exact_host', false, 0],
      ]);
      const empty = await api(await account(), 'get', '/rank/projects');
      expect(empty.body.data).toEqual({ projects: [], count: 0 });
    });

    it('PATCH changes name, match and tracking (each alone keeps the others); updated_at moves', async () => {
      const acc = await account();
      const id = await project(acc, 'patch-me.com');
      t.clock.advance(5_000);
      const renamed = await api(acc, 'patch', `/rank/projects/${id}`, { name: 'Renamed' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.data).toMatchObject({
        name: 'Renamed',
        match: 'domain',
        tracking: true,
        domain: 'patch-me.com',
      });
      expect(renamed.body.data.updated_at > renamed.body.data.created_at).toBe(true);
      const res = await api(acc, 'patch', `/rank/projects/${id}`, {
        match: 'exact_host',
        tracking: false,
      });
      expect(res.body.data).toMatchObject({
        name: 'Renamed',
        match: 'exact_host',
        tracking: false,
      });
      const stored = await sql.one<{ match: string; tracking: boolean }>(
        `SELECT match, tracking FROM rank_projects WHERE id = $1`,
        [id],
      );
      expect(stored).toEqual({ match: 'exact_host', tracking: false });
    });

    it('422 VALIDATION_ERROR, one message per field, nothing changed: missing, wrong-typed, out-of-range and hostile values', async () => {
      const acc = await account();
      const cases: Array<[unknown, string[]]> = [
        [{}, ['domain']],
        [{ domain: 42 }, ['domain']],
        [{ domain: 'not a domain' }, ['domain']],
        [{ domain: 'https://' }, ['domain']],
        [{ domain: 'www.' }, ['domain']],
        [{ domain: 'localhost' }, ['domain']],
        [{ domain: '../../etc/passwd' }, ['domain']],
        [{ domain: '<script>alert(1)</script>.com' }, ['domain']],
        [{ domain: `${'a'.repeat(250)}.com` }, ['domain']],
        [{ domain: 'ok.com', name: '' }, ['name']],
        [{ domain: 'ok.com', name: 'x'.repeat(201) }, ['name']],
        [{ domain: 'ok.com', name: 'a\u0000b' }, ['name']],
        [{ domain: 'ok\u0000.com' }, ['domain']],
        [{ domain: 'ok.com', match: 'subdomain' }, ['match']],
        [{ domain: 'ok.com', tracking: 'yes' }, ['tracking']],
        [
          { domain: ['a.com'], name: 7, match: 7, tracking: 1 },
          ['domain', 'name', 'match', 'tracking'],
        ],
      ];
      for (const [body, expected] of cases) {
        const res = await api(acc, 'post', '/rank/projects', body);
        expect([JSON.stringify(body).slice(0, 60), res.status, res.body.error?.code]).toEqual([
          JSON.stringify(body).slice(0, 60),
          422,
          'VALIDATION_ERROR',
        ]);
        expect(fields(res)?.sort()).toEqual([...expected].sort());
      }
      const id = await project(acc, 'valid.com');
      for (const [body, expected] of [
        [{ match: 'exact' }, ['match']],
        [{ tracking: 'false', name: '  ' }, ['name', 'tracking']],
      ] as Array<[unknown, string[]]>) {
        const res = await api(acc, 'patch', `/rank/projects/${id}`, body);
        expect(res.status).toBe(422);
        expect(fields(res)?.sort()).toEqual(expected);
      }
      const list = await api(acc, 'get', '/rank/projects');
      expect(list.body.data.projects.map((p: { domain: string }) => p.domain)).toEqual([
        'valid.com',
      ]);
      expect(list.body.data.projects[0]).toMatchObject({
        name: 'valid.com',
        match: 'domain',
        tracking: true,
      });
    });
  });

  describe('adding keywords', () => {
    it('defaults US/en/desktop, body values, per-item values win; normalised text; status pending; the spec’s tracked-keyword shape', async () => {
      const acc = await account();
      const id = await project(acc, 'kw-shop.com', { name: 'KW Shop' });
      const res = await api(acc, 'post', `/rank/projects/${id}/keywords`, {
        keywords: [
          '  running   shoes\t',
          { keyword: 'trail shoes', country: 'gb', device: 'MOBILE' },
          { keyword: 'zapatos', language: 'es' },
        ],
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data)).toEqual(['added', 'already_tracked', 'tracked_keywords']);
      const added = res.body.data.added as Array<Record<string, unknown>>;
      expect(added.map((k) => [k.keyword, k.country, k.language, k.device, k.status])).toEqual([
        ['running shoes', 'US', 'en', 'desktop', 'pending'],
        ['trail shoes', 'GB', 'en', 'mobile', 'pending'],
        ['zapatos', 'US', 'es', 'desktop', 'pending'],
      ]);
      expect(res.body.data.already_tracked).toEqual([]);
      expect(res.body.data.tracked_keywords).toEqual({ used: 3, limit: 500 });
      // The tracked-keyword shape of GET /rank/keywords, member for member.
      for (const k of added) expect(Object.keys(k)).toEqual(TRACKED_KEYWORD_MEMBERS);
      expect(added[0]).toMatchObject({
        project_id: id,
        project_domain: 'kw-shop.com',
        project_name: 'KW Shop',
        last_checked: null,
        current_position: null,
        previous_position: null,
        position_change: null,
      });
      const listed = await api(acc, 'get', `/rank/keywords?project_id=${id}`);
      expect(listed.body.data.keywords).toEqual(added);

      // Body-level market, an item's own member still wins.
      const body = await api(acc, 'post', `/rank/projects/${id}/keywords`, {
        country: 'de',
        language: 'de',
        device: 'mobile',
        keywords: [
          'laufschuhe',
          { keyword: 'running shoes', country: 'US', language: 'en', device: 'desktop' },
        ],
      });
      expect(body.status).toBe(200);
      expect(
        body.body.data.added.map((k: Record<string, unknown>) => [
          k.keyword,
          k.country,
          k.language,
          k.device,
        ]),
      ).toEqual([['laufschuhe', 'DE', 'de', 'mobile']]);
      expect(
        body.body.data.already_tracked.map((k: { keyword_id: number }) => k.keyword_id),
      ).toEqual([added[0].keyword_id]);
      expect(body.body.data.tracked_keywords).toEqual({ used: 4, limit: 500 });
    });

    it('already tracked items (case-insensitive, same market and device) come back unchanged; re-sending a batch is safe; batch duplicates count once', async () => {
      const acc = await account();
      const id = await project(acc, 'idem.com');
      const batch = {
        keywords: [
          'Blue Widgets',
          'blue  widgets',
          'BLUE WIDGETS',
          { keyword: 'blue widgets', device: 'mobile' },
        ],
      };
      const first = await api(acc, 'post', `/rank/projects/${id}/keywords`, batch);
      expect(first.status).toBe(200);
      expect(
        first.body.data.added.map((k: Record<string, unknown>) => [k.keyword, k.device]),
      ).toEqual([
        ['Blue Widgets', 'desktop'],
        ['blue widgets', 'mobile'],
      ]);
      expect(first.body.data.tracked_keywords.used).toBe(2);
      // The worker checked one of them meanwhile; its status and position are kept.
      const checked = first.body.data.added[0].keyword_id as number;
      await yd.checks(checked, [{ check_date: plainDate(t.clock.now()), position: 4 }]);
      const again = await api(acc, 'post', `/rank/projects/${id}/keywords`, batch);
      expect(again.status).toBe(200);
      expect(again.body.data.added).toEqual([]);
      expect(
        again.body.data.already_tracked.map((k: { keyword_id: number }) => k.keyword_id),
      ).toEqual(first.body.data.added.map((k: { keyword_id: number }) => k.keyword_id));
      expect(again.body.data.already_tracked[0]).toMatchObject({
        keyword: 'Blue Widgets',
        current_position: 4,
      });
      expect(again.body.data.tracked_keywords).toEqual({ used: 2, limit: 500 });
      expect(await keywordCount(acc.id)).toBe(2);
      // Letters beyond ASCII compare case-insensitively too.
      const umlaut = await api(acc, 'post', `/rank/projects/${id}/keywords`, {
        keywords: ['Über Schuhe'],
      });
      const upper = await api(acc, 'post', `/rank/projects/${id}/keywords`, {
        keywords: ['ÜBER SCHUHE'],
      });
      expect(upper.body.data.added).toEqual([]);
      expect(upper.body.data.already_tracked).toEqual(umlaut.body.data.added);
    });

    it('422 VALIDATION_ERROR, one message per field, nothing added: missing, wrong-typed, out-of-range and hostile items', async () => {
      const acc = await account('pro', { tracked_keywords: 2000 });
      const id = await project(acc, 'bad-kw.com');
      const cases: Array<[unknown, string[]]> = [
        [{}, ['keywords']],
        [{ keywords: 'running shoes' }, ['keywords']],
        [{ keywords: [] }, ['keywords']],
        [{ keywords: Array.from({ length: 1001 }, (_, i) => `k${i}`) }, ['keywords']],
        [{ keywords: ['ok', 42] }, ['keywords']],
        [{ keywords: ['ok', null] }, ['keywords']],
        [{ keywords: ['ok', ['nested']] }, ['keywords']],
        [{ keywords: ['   '] }, ['keywords.0.keyword']],
        [{ keywords: ['x'.repeat(201)] }, ['keywords.0.keyword']],
        [{ keywords: ['ok', 'nul\u0000byte'] }, ['keywords.1.keyword']],
        [{ keywords: ['bell\u0007'] }, ['keywords.0.keyword']],
        [{ keywords: [{ country: 'US' }] }, ['keywords.0.keyword']],
        [{ keywords: [{ keyword: 5 }] }, ['keywords.0.keyword']],
        [{ keywords: [{ keyword: 'a', country: 'XX' }] }, ['keywords.0.country']],
        [{ keywords: [{ keyword: 'a', country: 'USA' }] }, ['keywords.0.country']],
        [{ keywords: ['a', { keyword: 'b', language: 'xx' }] }, ['keywords.1.language']],
        [{ keywords: [{ keyword: 'a', language: 'en-us' }] }, ['keywords.0.language']],
        [{ keywords: [{ keyword: 'a', device: 'tablet' }] }, ['keywords.0.device']],
        [
          { keywords: ['a'], country: 'ZZ', language: 7, device: 'phone' },
          ['country', 'language', 'device'],
        ],
        [
          { keywords: [{ keyword: '', country: 1, language: 'klingon', device: true }] },
          ['keywords.0.keyword', 'keywords.0.country', 'keywords.0.language', 'keywords.0.device'],
        ],
      ];
      for (const [body, expected] of cases) {
        const res = await api(acc, 'post', `/rank/projects/${id}/keywords`, body);
        const label = JSON.stringify(body).slice(0, 80);
        expect([label, res.status, res.body.error?.code]).toEqual([label, 422, 'VALIDATION_ERROR']);
        expect([label, fields(res)?.sort()]).toEqual([label, [...expected].sort()]);
      }
      const big = await api(acc, 'post', `/rank/projects/${id}/keywords`, {
        keywords: Array.from({ length: 1001 }, (_, i) => `k${i}`),
      });
      expect(big.body.error.message).toMatch(/at most 1000 keywords/);
      expect(await keywordCount(acc.id)).toBe(0);
      // Hostile text is data: kept as posted (after trimming), never interpreted.
      const hostile = [
        "<script>alert('x')</script>",
        "'; DROP TABLE tracked_keywords; --",
        'ünïcødé 🚀',
      ];
      const ok = await api(acc, 'post', `/rank/projects/${id}/keywords`, { keywords: hostile });
      expect(ok.status).toBe(200);
      expect(ok.body.data.added.map((k: { keyword: string }) => k.keyword)).toEqual(hostile);
      // 1,000 items is the largest batch.
      const most = await api(acc, 'post', `/rank/projects/${id}/keywords`, {
        keywords: Array.from({ length: 1000 }, (_, i) => `bulk ${i}`),
      });
      expect(most.status).toBe(200);
      expect(most.body.data.added).toHaveLength(1000);
    });
  });

  describe('the tracked_keywords limit', () => {
    it('pro 500, agency 5,000, free and starter 0, overridable; shown by the account’s usage view', async () => {
      for (const [plan, limit] of [
        ['pro', 500],
        ['agency', 5000],
      ] as const) {
        const acc = await account(plan);
        const id = await project(acc, `${plan}-limit.com`);
        const res = await api(acc, 'post', `/rank/projects/${id}/keywords`, { keywords: ['a'] });
        expect(res.body.data.tracked_keywords).toEqual({ used: 1, limit });
      }
      const overridden = await account('pro', { tracked_keywords: 1200 });
      const id = await project(overridden, 'overridden.com');
      const res = await api(overridden, 'post', `/rank/projects/${id}/keywords`, {
        keywords: ['a', 'b'],
      });
      expect(res.body.data.tracked_keywords).toEqual({ used: 2, limit: 1200 });
      const adminView = await admin.get(`/accounts/${overridden.id}`);
      expect(adminView.body.data.limits.tracked_keywords).toBe(1200);
      expect(adminView.body.data.usage.tracked_keywords).toBe(2);
      const me = await signIn(t.url, overridden.id);
      const usage = await me.get('/usage');
      expect(usage.body.data.quotas.tracked_keywords).toEqual({ used: 2, limit: 1200 });

      for (const plan of ['free', 'starter'] as const) {
        const acc = await account(plan);
        const person = await signIn(t.url, acc.id);
        const created = await person.post('/rank/projects', { domain: `${plan}.com` });
        expect(created.status).toBe(201);
        const refused = await person.post(
          `/rank/projects/${created.body.data.project_id}/keywords`,
          {
            keywords: ['a'],
          },
        );
        expect(refused.status).toBe(402);
        expect(refused.body.meta).toMatchObject({ limit: 0, used: 0, requested: 1 });
        expect((await person.get('/usage')).body.data.quotas.tracked_keywords).toEqual({
          used: 0,
          limit: 0,
        });
      }
    });

    it('a batch that would pass it changes nothing: 402 PAYMENT_REQUIRED with meta.limit, used and requested (the new items)', async () => {
      const acc = await account('pro', { tracked_keywords: 3 });
      const a = await project(acc, 'limit-a.com');
      const b = await project(acc, 'limit-b.com');
      expectOk(
        await api(acc, 'post', `/rank/projects/${a}/keywords`, { keywords: ['one', 'two'] }),
      );
      const refused = await api(acc, 'post', `/rank/projects/${b}/keywords`, {
        keywords: ['three', 'four', 'Three'],
      });
      expect(refused.status).toBe(402);
      expect(refused.body.error.code).toBe('PAYMENT_REQUIRED');
      expect(refused.body.meta).toMatchObject({ limit: 3, used: 2, requested: 2 });
      expect(refused.body.error.message).toMatch(/Nothing was added/);
      expect(await keywordCount(acc.id)).toBe(2);
      // Already-tracked items are not counted again: only the new one is requested.
      const mixed = await api(acc, 'post', `/rank/projects/${a}/keywords`, {
        keywords: ['one', 'two', 'three', 'four'],
      });
      expect(mixed.status).toBe(402);
      expect(mixed.body.meta).toMatchObject({ limit: 3, used: 2, requested: 2 });
      const fits = await api(acc, 'post', `/rank/projects/${a}/keywords`, {
        keywords: ['ONE', 'three'],
      });
      expect(fits.status).toBe(200);
      expect(fits.body.data.tracked_keywords).toEqual({ used: 3, limit: 3 });
      // At the limit, a batch of already-tracked items still answers.
      const resend = await api(acc, 'post', `/rank/projects/${a}/keywords`, {
        keywords: ['one', 'two', 'three'],
      });
      expect(resend.status).toBe(200);
      expect(resend.body.data.already_tracked).toHaveLength(3);
      // Removing items resolves it; so does an override.
      const [, , third] = resend.body.data.already_tracked as Array<{ keyword_id: number }>;
      expectOk(await api(acc, 'delete', `/rank/keywords/${third.keyword_id}`));
      expectOk(await api(acc, 'post', `/rank/projects/${b}/keywords`, { keywords: ['four'] }));
      expect(
        (await api(acc, 'post', `/rank/projects/${b}/keywords`, { keywords: ['five'] })).status,
      ).toBe(402);
      await admin.patch(`/accounts/${acc.id}`, { overrides: { tracked_keywords: 4 } });
      expect(
        (await api(acc, 'post', `/rank/projects/${b}/keywords`, { keywords: ['five'] })).status,
      ).toBe(200);
    });

    it('is exact under concurrency: concurrent batches of one account never pass it together', async () => {
      for (let round = 0; round < 3; round++) {
        const acc = await account('pro', { tracked_keywords: 10 });
        const projects = await Promise.all(
          Array.from({ length: 5 }, (_, i) => project(acc, `race${round}-${i}.com`)),
        );
        const answers = await Promise.all(
          projects.map((id, i) =>
            api(acc, 'post', `/rank/projects/${id}/keywords`, {
              keywords: [`a${i}`, `b${i}`, `c${i}`, `d${i}`],
            }),
          ),
        );
        const statuses = answers.map((r) => r.status).sort();
        expect(statuses).toEqual([200, 200, 402, 402, 402]);
        expect(await keywordCount(acc.id)).toBe(8);
        for (const r of answers.filter((x) => x.status === 402))
          expect(r.body.meta).toMatchObject({ limit: 10, used: 8, requested: 4 });
      }
    });
  });

  describe('keywords: status and delete', () => {
    it('PATCH pauses and resumes (pending until first checked, active after); a paused keyword is not due', async () => {
      const acc = await account();
      const id = await project(acc, 'pause.com');
      const res = await api(acc, 'post', `/rank/projects/${id}/keywords`, {
        keywords: ['pause me', 'keep me', 'checked one'],
      });
      const [pause, keep, checked] = (res.body.data.added as Array<{ keyword_id: number }>).map(
        (k) => k.keyword_id,
      );
      const paused = await api(acc, 'patch', `/rank/keywords/${pause}`, { status: 'paused' });
      expect(paused.status).toBe(200);
      expect(Object.keys(paused.body.data)).toEqual(TRACKED_KEYWORD_MEMBERS);
      expect(paused.body.data).toMatchObject({ keyword_id: pause, status: 'paused' });

      // The worker's claim of due keywords (tracking projects; this one alone): the paused
      // one is not due.
      await sql.run(`UPDATE rank_projects SET tracking = (id = $1)`, [id]);
      const tasks = new SerpTasksRepository(sql, new RankChecksRepository(sql));
      const now = t.clock.now();
      const claimed = await tasks.claimDue(plainDate(now), now, 100);
      const claimedIds = claimed.map((c) => c.keyword_id);
      expect(claimedIds.sort()).toEqual([keep, checked].sort());
      expect(claimedIds).not.toContain(pause);

      const resumed = await api(acc, 'patch', `/rank/keywords/${pause}`, { status: 'ACTIVE' });
      expect(resumed.body.data.status).toBe('pending');
      await yd.checks(checked, [{ check_date: plainDate(now), position: 2 }]);
      await api(acc, 'patch', `/rank/keywords/${checked}`, { status: 'paused' });
      const active = await api(acc, 'patch', `/rank/keywords/${checked}`, { status: 'active' });
      expect(active.body.data).toMatchObject({ status: 'active', current_position: 2 });

      for (const body of [{}, { status: 'error' }, { status: 'pending' }, { status: 1 }]) {
        const bad = await api(acc, 'patch', `/rank/keywords/${keep}`, body);
        expect(bad.status).toBe(422);
        expect(fields(bad)).toEqual(['status']);
      }
    });

    it('DELETE removes a keyword and its history; GET /rank/keywords and /rank/history follow at once', async () => {
      const acc = await account();
      const id = await project(acc, 'del-kw.com');
      const res = await api(acc, 'post', `/rank/projects/${id}/keywords`, {
        keywords: ['gone', 'stays'],
      });
      const [gone, stays] = (res.body.data.added as Array<{ keyword_id: number }>).map(
        (k) => k.keyword_id,
      );
      await yd.checks(gone, [{ check_date: plainDate(t.clock.now()), position: 5 }]);
      // A kept page of GET /rank/keywords, then the delete: the next read has it gone.
      expect((await api(acc, 'get', '/rank/keywords')).body.data.count).toBe(2);
      const del = await api(acc, 'delete', `/rank/keywords/${gone}`);
      expect(del.status).toBe(200);
      expect(del.body.data).toEqual({ keyword_id: gone, deleted: true });
      const after = await api(acc, 'get', '/rank/keywords');
      expect(after.body.data.keywords.map((k: { keyword_id: number }) => k.keyword_id)).toEqual([
        stays,
      ]);
      expect((await api(acc, 'get', `/rank/history?keyword_id=${gone}`)).status).toBe(404);
      const checks = await sql.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM rank_checks WHERE keyword_id = $1`,
        [gone],
      );
      expect(checks!.n).toBe(0);
      expect((await api(acc, 'delete', `/rank/keywords/${gone}`)).status).toBe(404);
      const projects = await api(acc, 'get', '/rank/projects');
      expect(projects.body.data.projects[0].keywords_count).toBe(1);
    });

    it('DELETE of a project takes its keywords and their history; the rank version moves, kept pages follow', async () => {
      const acc = await account();
      const id = await project(acc, 'del-project.com');
      const keep = await project(acc, 'keep-project.com');
      const res = await api(acc, 'post', `/rank/projects/${id}/keywords`, {
        keywords: ['x', 'y', 'z'],
      });
      await api(acc, 'post', `/rank/projects/${keep}/keywords`, { keywords: ['kept'] });
      const ids = (res.body.data.added as Array<{ keyword_id: number }>).map((k) => k.keyword_id);
      await yd.checks(ids[0], [{ check_date: plainDate(t.clock.now()), position: 1 }]);
      expect((await api(acc, 'get', '/rank/keywords')).body.data.count).toBe(4);
      const version = async () =>
        (await sql.one<{ version: string }>(
          `SELECT version FROM rank_versions WHERE account_id = $1`,
          [acc.id],
        ))!.version;
      const before = await version();
      const del = await api(acc, 'delete', `/rank/projects/${id}`);
      expect(del.status).toBe(200);
      expect(del.body.data).toEqual({ project_id: id, deleted: true, keywords_deleted: 3 });
      expect(Number(await version())).toBeGreaterThan(Number(before));
      const after = await api(acc, 'get', '/rank/keywords');
      expect(after.body.data.keywords.map((k: { keyword: string }) => k.keyword)).toEqual(['kept']);
      const left = await sql.one<{ k: number; c: number }>(
        `SELECT (SELECT count(*) FROM tracked_keywords WHERE id = ANY($1::int[]))::int AS k,
                (SELECT count(*) FROM rank_checks WHERE keyword_id = ANY($1::int[]))::int AS c`,
        [ids],
      );
      expect(left).toEqual({ k: 0, c: 0 });
      expect((await api(acc, 'get', `/rank/keywords?project_id=${id}`)).status).toBe(404);
      for (const [method, path] of [
        ['delete', `/rank/projects/${id}`],
        ['patch', `/rank/projects/${id}`],
        ['post', `/rank/projects/${id}/keywords`],
        ['patch', `/rank/keywords/${ids[1]}`],
      ] as Array<[Method, string]>) {
        const gone = await api(
          acc,
          method,
          path,
          method === 'delete' ? undefined : { name: 'n', keywords: ['a'], status: 'paused' },
        );
        expect([method, path, gone.status]).toEqual([method, path, 404]);
      }
    });
  });

  describe('ownership, ids, metering', () => {
    it('another account’s project or keyword is 404 NOT_FOUND exactly like a missing one, and is left unchanged', async () => {
      const owner = await account();
      const id = await project(owner, 'owned.com');
      const res = await api(owner, 'post', `/rank/projects/${id}/keywords`, { keywords: ['mine'] });
      const kw = res.body.data.added[0].keyword_id as number;
      const intruder = await account();
      const calls: Array<[Method, string, unknown?]> = [
        ['patch', `/rank/projects/${id}`, { name: 'Taken' }],
        ['delete', `/rank/projects/${id}`],
        ['post', `/rank/projects/${id}/keywords`, { keywords: ['theirs'] }],
        ['patch', `/rank/keywords/${kw}`, { status: 'paused' }],
        ['delete', `/rank/keywords/${kw}`],
      ];
      for (const [method, path, body] of calls) {
        const theirs = await api(intruder, method, path, body);
        const missing = await api(
          intruder,
          method,
          path.replace(String(path.includes('keywords/') ? kw : id), '2147483000'),
          body,
        );
        expect([path, theirs.status, theirs.body.error?.code]).toEqual([path, 404, 'NOT_FOUND']);
        expect(missing.status).toBe(404);
        expect(theirs.body.error.message).toBe(missing.body.error.message);
      }
      const still = await api(owner, 'get', '/rank/projects');
      expect(still.body.data.projects[0]).toMatchObject({ name: 'owned.com', keywords_count: 1 });
      expect((await api(owner, 'get', '/rank/keywords')).body.data.keywords[0].status).toBe(
        'pending',
      );
      expect((await api(intruder, 'get', '/rank/projects')).body.data.count).toBe(0);
    });

    it('bad ids (not an integer, huge, negative, zero) are 4xx, never 500', async () => {
      const acc = await account();
      for (const bad of [
        'abc',
        '1.5',
        '-1',
        '0',
        '99999999999999999999',
        '2147483648',
        '1e3',
        '%00',
      ]) {
        for (const [method, path, body] of [
          ['patch', `/rank/projects/${bad}`, { name: 'x' }],
          ['delete', `/rank/projects/${bad}`],
          ['post', `/rank/projects/${bad}/keywords`, { keywords: ['a'] }],
          ['patch', `/rank/keywords/${bad}`, { status: 'paused' }],
          ['delete', `/rank/keywords/${bad}`],
        ] as Array<[Method, string, unknown?]>) {
          const res = await api(acc, method, path, body);
          expect([method, path, res.status >= 400 && res.status < 500]).toEqual([
            method,
            path,
            true,
          ]);
        }
      }
    });

    it('each call is counted by the monthly meter (your-data) and never refused at the monthly cap', async () => {
      const capped = await account('pro', { api_calls_per_month: 1 });
      expectOk(await api(capped, 'get', '/usage'));
      expect((await api(capped, 'get', '/usage')).status).toBe(429);
      const counted = async () =>
        (await admin.get(`/accounts/${capped.id}`)).body.data.usage.api_calls_per_month as number;
      const before = await counted();
      const created = await api(capped, 'post', '/rank/projects', { domain: 'capped.com' });
      expect(created.status).toBe(201);
      const id = created.body.data.project_id as number;
      const added = await api(capped, 'post', `/rank/projects/${id}/keywords`, {
        keywords: ['a', 'b'],
      });
      expect(added.status).toBe(200);
      const [a, b] = (added.body.data.added as Array<{ keyword_id: number }>).map(
        (k) => k.keyword_id,
      );
      for (const [method, path, body] of [
        ['get', '/rank/projects'],
        ['post', '/rank/projects', { domain: 'capped.com' }],
        ['patch', `/rank/projects/${id}`, { name: 'Capped' }],
        ['patch', `/rank/keywords/${a}`, { status: 'paused' }],
        ['delete', `/rank/keywords/${b}`],
        ['delete', `/rank/projects/${id}`],
      ] as Array<[Method, string, unknown?]>) {
        const res = await api(capped, method, path, body);
        expect([method, path, res.status]).toEqual([method, path, 200]);
      }
      // Every management call above was counted: 2 + 6, in the your-data group.
      expect((await counted()) - before).toBe(8);
      const history = await (await signIn(t.url, capped.id)).get('/usage/history?days=1');
      const today = history.body.data.days.at(-1) as Record<string, number>;
      expect(today).toMatchObject({ your_data: 8, research: 0 });
    });
  });

  describe('the account area (/account/v1/rank, session cookie)', () => {
    it('has the same operations, answers and errors as the API, through the same records, not metered', async () => {
      const acc = await account();
      const person = await signIn(t.url, acc.id);
      const created = await person.post('/rank/projects', { domain: 'https://www.Console.io/' });
      expect(created.status).toBe(201);
      const id = created.body.data.project_id as number;
      expect(created.body.data).toMatchObject({
        domain: 'console.io',
        name: 'console.io',
        match: 'domain',
        tracking: true,
      });
      const same = await person.post('/rank/projects', { domain: 'console.io' });
      expect(same.status).toBe(200);
      expect(same.body.data).toEqual(created.body.data);
      expect(
        (await api(acc, 'post', '/rank/projects', { domain: 'console.io' })).body.data,
      ).toEqual(created.body.data);

      const added = await person.post(`/rank/projects/${id}/keywords`, {
        device: 'mobile',
        keywords: [
          'console kw',
          { keyword: 'desk kw', device: 'desktop', country: 'ca', language: 'fr' },
        ],
      });
      expect(added.status).toBe(200);
      expect(
        added.body.data.added.map((k: Record<string, unknown>) => [
          k.keyword,
          k.country,
          k.language,
          k.device,
          k.status,
        ]),
      ).toEqual([
        ['console kw', 'US', 'en', 'mobile', 'pending'],
        ['desk kw', 'CA', 'fr', 'desktop', 'pending'],
      ]);
      const resend = await api(acc, 'post', `/rank/projects/${id}/keywords`, {
        device: 'mobile',
        keywords: ['Console KW'],
      });
      expect(resend.body.data.already_tracked).toEqual([added.body.data.added[0]]);

      const list = await person.get('/rank/projects');
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual((await api(acc, 'get', '/rank/projects')).body.data);
      const patched = await person.patch(`/rank/projects/${id}`, {
        name: 'Console',
        match: 'exact_host',
      });
      expect(patched.body.data).toMatchObject({ name: 'Console', match: 'exact_host' });
      const kw = added.body.data.added[0].keyword_id as number;
      const paused = await person.patch(`/rank/keywords/${kw}`, { status: 'paused' });
      expect(paused.body.data).toMatchObject({ keyword_id: kw, status: 'paused' });

      // Errors: 422 one per field, 404 for another account's, 402 past the limit.
      const invalid = await person.post(`/rank/projects/${id}/keywords`, {
        keywords: [{ keyword: 'a', country: 'XX' }],
      });
      expect(invalid.status).toBe(422);
      expect(fields(invalid)).toEqual(['keywords.0.country']);
      const other = await account();
      const theirs = await project(other, 'not-console.io');
      expect((await person.patch(`/rank/projects/${theirs}`, { name: 'x' })).status).toBe(404);
      expect((await person.delete(`/rank/projects/${theirs}`)).status).toBe(404);
      expect((await person.delete('/rank/keywords/abc')).status).toBe(404);
      await admin.patch(`/accounts/${acc.id}`, { overrides: { ...GENEROUS, tracked_keywords: 2 } });
      const over = await person.post(`/rank/projects/${id}/keywords`, { keywords: ['third'] });
      expect(over.status).toBe(402);
      expect(over.body.meta).toMatchObject({ limit: 2, used: 2, requested: 1 });

      const delKw = await person.delete(`/rank/keywords/${kw}`);
      expect(delKw.body.data).toEqual({ keyword_id: kw, deleted: true });
      const delProject = await person.delete(`/rank/projects/${id}`);
      expect(delProject.body.data).toEqual({ project_id: id, deleted: true, keywords_deleted: 1 });

      // Not metered: only the API calls above were counted.
      const usage = await admin.get(`/accounts/${acc.id}`);
      expect(usage.body.data.usage.api_calls_per_month).toBe(3);
      // No session: 401; a cross-site write: refused.
      expect((await request(t.url).get('/account/v1/rank/projects')).status).toBe(401);
      const crossSite = await request(t.url)
        .post('/account/v1/rank/projects')
        .set('Cookie', person.cookie)
        .set('Origin', 'https://evil.example')
        .send({ domain: 'evil.com' });
      expect(crossSite.status).toBe(403);
    });
  });

  it('the worker honours the project’s match: exact_host counts only the exact host, domain its subdomains too', async () => {
    // Each project alone is tracking while it is checked (the claim takes every due keyword).
    await sql.run(`UPDATE rank_projects SET tracking = false`);
    const acc = await account();
    const worker = new RankCollectionService(
      t.config,
      new SerpTasksRepository(sql, new RankChecksRepository(sql)),
      createSerpProvider(t.config, t.clock),
      t.clock,
    );
    const positions: Record<string, unknown> = {};
    for (const match of ['domain', 'exact_host'] as const) {
      const id = await project(acc, `${match.replace('_', '-')}.match-test.com`, { match });
      const keyword = `match ${match}`;
      fake.serps.set(keyword, { rank: 3, host: `shop.${match.replace('_', '-')}.match-test.com` });
      const res = await api(acc, 'post', `/rank/projects/${id}/keywords`, { keywords: [keyword] });
      const kw = res.body.data.added[0].keyword_id as number;
      await worker.postDue();
      await worker.collect();
      const entry = (await api(acc, 'get', `/rank/keywords?project_id=${id}`)).body.data
        .keywords[0];
      expect(entry.keyword_id).toBe(kw);
      positions[match] = [entry.status, entry.current_position];
      await api(acc, 'patch', `/rank/projects/${id}`, { tracking: false });
    }
    expect(positions).toEqual({ domain: ['active', 3], exact_host: ['active', null] });
  });
});
