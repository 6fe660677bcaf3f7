import type { Response } from 'supertest';
import { AdminClient, bearer, Plan, TestAccount } from '../helpers/fixtures';
import { signIn, SignedInUser } from '../helpers/account-session';
import { createTestApp, TestApp } from '../helpers/test-app';

/** The members of GET /api/v1/usage's data (the account view must carry them identically). */
const API_USAGE_MEMBERS = ['api_calls_limit', 'api_calls_used', 'plan', 'resets_at', 'unlimited'];

/**
 * Contract: docs/api.md, "Account area": GET /account/v1/usage (the same members as the data
 * of GET /api/v1/usage for this account, not counted as a call) and the connected-apps rows
 * (placeholder until the hosted MCP connector's OAuth grants exist).
 */
describe('Account area: usage view (/account/v1/usage) and connected apps placeholder', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp();
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  const expectError = (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe(code);
  };

  async function person(
    plan: Plan = 'pro',
    overrides?: Record<string, unknown>,
  ): Promise<{ acc: TestAccount; me: SignedInUser }> {
    const acc = await admin.account(plan, overrides);
    return { acc, me: await signIn(t.url, acc.id) };
  }

  const apiUsage = async (key: string) => {
    const res = await t.http().get('/api/v1/usage').set(bearer(key));
    expect(res.status).toBe(200);
    return res.body.data as Record<string, unknown>;
  };

  it('401 UNAUTHORIZED without a session', async () => {
    expectError(await t.http().get('/account/v1/usage'), 401, 'UNAUTHORIZED');
    expectError(await t.http().get('/account/v1/connections'), 401, 'UNAUTHORIZED');
    expectError(await t.http().delete('/account/v1/connections/1'), 401, 'UNAUTHORIZED');
  });

  it('has the members of GET /api/v1/usage with the same figures, and is not counted as a call', async () => {
    const { acc, me } = await person('pro');
    await apiUsage(acc.key);
    await apiUsage(acc.key);
    const api = await apiUsage(acc.key); // the third call, counted
    expect(api.api_calls_used).toBe(3);

    const view = await me.get('/usage');
    expect(view.status).toBe(200);
    expect(view.body.success).toBe(true);
    for (const member of API_USAGE_MEMBERS) expect(view.body.data[member]).toEqual(api[member]);
    expect(view.body.data).toMatchObject({
      plan: 'pro',
      api_calls_used: 3,
      api_calls_limit: 20,
      unlimited: false,
    });
    expect(view.body.meta.period_start).toMatch(/^\d{4}-\d{2}-01$/);

    // Reading the view many times moves nothing.
    for (let i = 0; i < 5; i++) expect((await me.get('/usage')).body.data.api_calls_used).toBe(3);
    expect((await admin.get(`/accounts/${acc.id}`)).body.data.usage.api_calls_per_month).toBe(3);
    // The next API call is the fourth.
    expect((await apiUsage(acc.key)).api_calls_used).toBe(4);
    expect((await me.get('/usage')).body.data.api_calls_used).toBe(4);
  });

  it('works at the monthly cap (not refused, not counted)', async () => {
    const { acc, me } = await person('pro', { api_calls_per_month: 2 });
    await apiUsage(acc.key);
    await apiUsage(acc.key);
    expectError(await t.http().get('/api/v1/usage').set(bearer(acc.key)), 429, 'RATE_LIMITED');
    const view = await me.get('/usage');
    expect(view.status).toBe(200);
    expect(view.body.data).toMatchObject({ api_calls_used: 2, api_calls_limit: 2 });
  });

  it('an unlimited override reads api_calls_limit 0 with unlimited true, as on /api/v1', async () => {
    const { acc, me } = await person('agency', { api_calls_per_month: 'unlimited' });
    const api = await apiUsage(acc.key);
    const view = (await me.get('/usage')).body.data;
    expect(api).toMatchObject({ api_calls_limit: 0, unlimited: true });
    for (const member of API_USAGE_MEMBERS) expect(view[member]).toEqual(api[member]);
  });

  it('also shows feature quotas (used of limit), credits and API access', async () => {
    const { acc, me } = await person('pro', { keyword_research_per_month: 7 });
    await admin.credits(acc.id, 12);
    const research = await t
      .http()
      .post('/api/v1/keyword-research')
      .set(bearer(acc.key))
      .send({ keyword: 'account usage view' });
    expect(research.status).toBe(200);

    const view = await me.get('/usage');
    expect(view.status).toBe(200);
    expect(view.body.data).toMatchObject({
      api_access: true,
      credits: 12,
      api_calls_used: 1,
      quotas: {
        keyword_research_per_month: { used: 1, limit: 7 },
        backlinks_per_month: { used: 0, limit: 50 },
        site_audit_crawls_per_month: { used: 0, limit: 10 },
        site_audit_rolling_page_budget: { used: 0, limit: 5000 },
      },
    });
    // The same figures as the admin view.
    const adminView = (await admin.get(`/accounts/${acc.id}`)).body.data;
    expect(adminView.usage.keyword_research_per_month).toBe(1);
    expect(adminView.usage.credits).toBe(12);
  });

  it.each(['free', 'starter'] as const)(
    'a %s account sees its usage too (no API access, allowance 0)',
    async (plan) => {
      const { me } = await person(plan);
      const view = await me.get('/usage');
      expect(view.status).toBe(200);
      expect(view.body.data).toMatchObject({
        plan,
        api_access: false,
        api_calls_used: 0,
        api_calls_limit: 0,
        unlimited: false,
      });
    },
  );

  it('shows a plan change at once', async () => {
    const { acc, me } = await person('pro');
    await admin.patch(`/accounts/${acc.id}`, { plan: 'agency' });
    expect((await me.get('/usage')).body.data).toMatchObject({
      plan: 'agency',
      api_calls_limit: 100,
    });
  });

  it('connected apps: an empty list for now; revoking any id is 404 NOT_FOUND', async () => {
    const { me } = await person('pro');
    const list = await me.get('/connections');
    expect(list.status).toBe(200);
    expect(list.body.success).toBe(true);
    expect(list.body.data).toEqual([]);
    for (const id of ['1', '12345', 'abc']) {
      expectError(await me.delete(`/connections/${id}`), 404, 'NOT_FOUND');
    }
  });
});
