import request from 'supertest';
import { AdminClient, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';

const RECORD_TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('Admin API: accounts, keys, credits (docs/api.md, "Admin API")', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp();
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  describe('auth', () => {
    it('401 without a token, with a wrong token, and with a customer API key', async () => {
      const acc = await admin.account('agency');
      for (const auth of [
        undefined,
        'Bearer wrong-token-wrong-token',
        `Bearer ${acc.key}`,
        process.env.ADMIN_TOKEN,
      ]) {
        const req = request(t.url).get(`/admin/v1/accounts/${acc.id}`);
        const res = auth ? await req.set('Authorization', auth) : await req;
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('UNAUTHORIZED');
      }
    });

    it('the whole module answers 404 when ADMIN_TOKEN is unset', async () => {
      const off = await createTestApp({ env: { ADMIN_TOKEN: '' } });
      try {
        const res = await request(off.url)
          .post('/admin/v1/accounts')
          .set('Authorization', 'Bearer anything-at-all-here')
          .send({ name: 'x', plan: 'pro' });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      } finally {
        await off.close();
      }
    });
  });

  describe('accounts', () => {
    it('creates an account: 201 {id, name, plan, credits, created_at}', async () => {
      const res = await admin.post('/accounts', { name: '  Acme SEO  ', plan: 'agency' });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.any(Number),
        name: 'Acme SEO',
        plan: 'agency',
        credits: 0,
        created_at: expect.stringMatching(RECORD_TS),
      });
    });

    it.each([
      [{}, ['name', 'plan']],
      [{ name: 'x', plan: 'enterprise' }, ['plan']],
      [{ name: 42, plan: 'pro' }, ['name']],
      [{ name: '', plan: 'pro' }, ['name']],
      [{ name: 'x'.repeat(201), plan: 'pro' }, ['name']],
      [{ name: 'x', plan: ['pro'] }, ['plan']],
    ])('422 VALIDATION_ERROR for %j', async (body, fields) => {
      const res = await admin.post('/accounts', body);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(
        expect.arrayContaining(fields),
      );
    });

    it('reads an account with the limits in force and its usage', async () => {
      const acc = await admin.account('pro');
      await t.http().get('/api/v1/usage').set(bearer(acc.key));
      const res = await admin.get(`/accounts/${acc.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data.limits).toEqual({
        api_calls_per_month: 20,
        requests_per_minute: 20,
        keyword_research_per_month: expect.any(Number),
        backlinks_per_month: expect.any(Number),
        site_audit_crawls_per_month: expect.any(Number),
        site_audit_pages_per_crawl: expect.any(Number),
        site_audit_rolling_page_budget: expect.any(Number),
        tracked_keywords: 500,
        ai_visibility_projects: 1,
        ai_visibility_prompts_per_project: 25,
        gsc_properties: 5,
      });
      expect(res.body.data.usage).toMatchObject({
        api_calls_per_month: 1,
        keyword_research_per_month: 0,
        backlinks_per_month: 0,
        site_audit_crawls_per_month: 0,
        ai_visibility_projects: 0,
        ai_visibility_prompts_per_project: 0,
        gsc_properties: 0,
        credits: 0,
      });
    });

    it('PATCH sets overrides, keeps the others, and null removes one (back to the plan value)', async () => {
      const acc = await admin.account('pro');
      let res = await admin.patch(`/accounts/${acc.id}`, {
        overrides: { requests_per_minute: 7, api_calls_per_month: 'unlimited' },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.limits.requests_per_minute).toBe(7);
      expect(res.body.data.limits.api_calls_per_month).toBe('unlimited');
      res = await admin.patch(`/accounts/${acc.id}`, {
        name: 'Renamed',
        overrides: { requests_per_minute: null },
      });
      expect(res.body.data.name).toBe('Renamed');
      expect(res.body.data.limits.requests_per_minute).toBe(20);
      expect(res.body.data.limits.api_calls_per_month).toBe('unlimited');
      res = await admin.patch(`/accounts/${acc.id}`, { plan: 'agency' });
      expect(res.body.data.plan).toBe('agency');
      expect(res.body.data.limits.requests_per_minute).toBe(60);
    });

    it.each([
      [{ overrides: { requests_per_minute: -1 } }],
      [{ overrides: { requests_per_minute: 'unlimited' } }],
      [{ overrides: { api_calls_per_month: 1.5 } }],
      [{ overrides: { api_calls_per_month: '100' } }],
      [{ overrides: 'none' }],
      [{ plan: 'gold' }],
    ])('PATCH 422 for %j', async (body) => {
      const acc = await admin.account('pro');
      const res = await admin.patch(`/accounts/${acc.id}`, body);
      expect(res.status).toBe(422);
    });

    it.each(['999999', 'abc', '1.5', '-1', '99999999999', "1'; DROP TABLE accounts;--"])(
      '404 for account id %s',
      async (id) => {
        const res = await admin.get(`/accounts/${encodeURIComponent(id)}`);
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      },
    );
  });

  describe('account list (GET /admin/v1/accounts)', () => {
    const tag = `list${Date.now().toString(36)}`;
    let ids: number[] = [];

    beforeAll(async () => {
      ids = [];
      for (const [name, plan] of [
        [`${tag} Alpha Agency`, 'agency'],
        [`${tag} Beta 100%_off`, 'pro'],
        [`${tag} Gamma`, 'pro'],
      ] as const) {
        const res = await admin.post('/accounts', { name, plan });
        ids.push(res.body.data.id);
      }
      const user = await admin.post(`/accounts/${ids[2]}/users`, {
        email: `Owner.${tag}@Example.org`,
        password: 'correct horse battery staple',
      });
      expect(user.status).toBe(201);
    });

    it('newest first with e-mails, meta.total/limit/offset, paging without overlap', async () => {
      const first = await admin.get(`/accounts?search=${tag}&limit=2`);
      expect(first.status).toBe(200);
      expect(first.body.meta).toMatchObject({ total: 3, limit: 2, offset: 0 });
      expect(first.body.data.count).toBe(2);
      expect(first.body.data.accounts.map((a: { id: number }) => a.id)).toEqual([ids[2], ids[1]]);
      expect(first.body.data.accounts[0]).toEqual({
        id: ids[2],
        name: `${tag} Gamma`,
        plan: 'pro',
        credits: 0,
        created_at: expect.stringMatching(RECORD_TS),
        emails: [`Owner.${tag}@Example.org`],
      });
      const second = await admin.get(`/accounts?search=${tag}&limit=2&offset=2`);
      expect(second.body.data.accounts.map((a: { id: number }) => a.id)).toEqual([ids[0]]);
      expect(second.body.meta.total).toBe(3);
      const past = await admin.get(`/accounts?search=${tag}&offset=50`);
      expect(past.body.data).toEqual({ accounts: [], count: 0 });
      expect(past.body.meta.total).toBe(3);
    });

    it('searches the name and the e-mail case-insensitively, % and _ taken literally, by plan', async () => {
      const ofSearch = async (q: string) =>
        (await admin.get(`/accounts?${q}`)).body.data.accounts.map((a: { id: number }) => a.id);
      expect(await ofSearch(`search=${tag.toUpperCase()}%20alpha`)).toEqual([ids[0]]);
      expect(await ofSearch(`search=OWNER.${tag}`)).toEqual([ids[2]]);
      expect(await ofSearch(`search=${encodeURIComponent('100%_off')}`)).toEqual([ids[1]]);
      expect(await ofSearch(`search=${encodeURIComponent(`${tag} %`)}`)).toEqual([]);
      expect(await ofSearch(`search=${encodeURIComponent(`${tag} B_ta`)}`)).toEqual([]);
      expect(await ofSearch(`search=${tag}&plan=agency`)).toEqual([ids[0]]);
      expect(await ofSearch(`search=${encodeURIComponent("' OR 1=1 --")}`)).toEqual([]);
    });

    it.each([
      'limit=0',
      'limit=101',
      'limit=abc',
      'offset=-1',
      'offset=1.5',
      'plan=gold',
      `search=${'x'.repeat(201)}`,
      'search=',
    ])('422 for %s', async (q) => {
      const res = await admin.get(`/accounts?${q}`);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    });

    it('401 without the admin token', async () => {
      const res = await request(t.url).get('/admin/v1/accounts');
      expect(res.status).toBe(401);
    });
  });

  describe('API keys', () => {
    it('shows the secret once; lists keys without secrets; revocation is recorded', async () => {
      const acc = await admin.account('pro');
      const created = await admin.post(`/accounts/${acc.id}/api-keys`, { label: 'CI pipeline' });
      expect(created.status).toBe(201);
      expect(created.body.data).toEqual({
        id: expect.any(Number),
        label: 'CI pipeline',
        key: expect.stringMatching(/^seo_live_[0-9A-Za-z]{49}$/),
        prefix: created.body.data.key.slice(0, 13),
        created_at: expect.stringMatching(RECORD_TS),
      });
      const list = await admin.get(`/accounts/${acc.id}/api-keys`);
      expect(list.body.data.count).toBe(2);
      const text = JSON.stringify(list.body);
      expect(text).not.toContain(created.body.data.key);
      expect(text).not.toMatch(/hash/);
      for (const k of list.body.data.keys) expect(k.key).toBeUndefined();
      const stored = await t.db.query('SELECT key_hash FROM api_keys WHERE id = $1', [
        created.body.data.id,
      ]);
      expect(stored[0].key_hash).not.toContain(created.body.data.key.slice(9));

      const used = await t.http().get('/api/v1/usage').set(bearer(created.body.data.key));
      expect(used.status).toBe(200);
      const revoked = await admin.delete(`/api-keys/${created.body.data.id}`);
      expect(revoked.body.data.revoked_at).toMatch(RECORD_TS);
      const after = await admin.get(`/accounts/${acc.id}/api-keys`);
      const entry = after.body.data.keys.find((k: { id: number }) => k.id === created.body.data.id);
      expect(entry.revoked_at).toMatch(RECORD_TS);
      expect(entry.last_used_at).toMatch(RECORD_TS);
    });

    it('422 for a missing label; 404 for an unknown account or key', async () => {
      const acc = await admin.account('pro');
      expect((await admin.post(`/accounts/${acc.id}/api-keys`, {})).status).toBe(422);
      expect((await admin.post('/accounts/999999/api-keys', { label: 'x' })).status).toBe(404);
      expect((await admin.delete('/api-keys/999999')).status).toBe(404);
    });
  });

  describe('credits', () => {
    it('adds and takes credits with a ledger row each; never below 0 (422, nothing written)', async () => {
      const acc = await admin.account('agency');
      let res = await admin.post(`/accounts/${acc.id}/credits`, { amount: 10, reason: 'top-up' });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ balance: 10 });
      res = await admin.post(`/accounts/${acc.id}/credits`, { amount: -4, reason: 'correction' });
      expect(res.body.data.balance).toBe(6);
      res = await admin.post(`/accounts/${acc.id}/credits`, { amount: -7, reason: 'too much' });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      const ledger = await t.db.query(
        'SELECT delta, balance_after FROM credit_ledger WHERE account_id = $1 ORDER BY id',
        [acc.id],
      );
      expect(ledger).toEqual([
        { delta: 10, balance_after: 10 },
        { delta: -4, balance_after: 6 },
      ]);
      const read = await admin.get(`/accounts/${acc.id}`);
      expect(read.body.data.credits).toBe(6);
      expect(read.body.data.usage.credits).toBe(6);
    });

    it.each([
      [{ amount: 0, reason: 'x' }],
      [{ amount: 1.5, reason: 'x' }],
      [{ amount: '5', reason: 'x' }],
      [{ amount: 5 }],
      [{ amount: 1e12, reason: 'x' }],
    ])('422 for %j', async (body) => {
      const acc = await admin.account('pro');
      expect((await admin.post(`/accounts/${acc.id}/credits`, body)).status).toBe(422);
    });

    it('the ledger is append-only at the database level', async () => {
      const acc = await admin.account('pro');
      await admin.credits(acc.id, 3);
      await expect(
        t.db.query('UPDATE credit_ledger SET delta = 100 WHERE account_id = $1', [acc.id]),
      ).rejects.toThrow(/append-only/);
    });

    it('concurrent debits never overdraw: 30 parallel -1 against a balance of 10 succeed exactly 10 times', async () => {
      const acc = await admin.account('pro');
      await admin.credits(acc.id, 10);
      const results = await Promise.all(
        Array.from({ length: 30 }, () =>
          admin.post(`/accounts/${acc.id}/credits`, { amount: -1, reason: 'race' }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(10);
      expect(results.filter((r) => r.status === 422)).toHaveLength(20);
      const read = await admin.get(`/accounts/${acc.id}`);
      expect(read.body.data.credits).toBe(0);
    });
  });
});
