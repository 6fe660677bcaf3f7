import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { AdminClient } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';

/** GET /admin/v1/accounts: search by name or user e-mail, paging (issue 41 item 6). */
describe('GET /admin/v1/accounts (search and paging)', () => {
  let t: TestApp;
  let admin: AdminClient;
  /** In every name or e-mail below, so other suites' accounts never match. */
  const tag = `t${randomBytes(5).toString('hex')}`;
  const ids: Record<'a' | 'b' | 'c', number> = { a: 0, b: 0, c: 0 };

  const create = async (name: string) => {
    const res = await admin.post('/accounts', { name, plan: 'pro' });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = new AdminClient(t.url);
    ids.a = await create(`Acme_${tag} 100%`);
    // Matches "acme_<tag>" only if `_` were a wildcard.
    ids.b = await create(`acmeX${tag}`);
    ids.c = await create(`Other ${tag}`);
    const user = await admin.post(`/accounts/${ids.c}/users`, {
      email: `billing.${tag}@acme-mail.test`,
      password: 'a long enough password',
    });
    expect(user.status).toBe(201);
  });
  afterAll(() => t.close());

  const list = (query: string) => admin.get(`/accounts${query}`);
  const names = (res: request.Response) =>
    (res.body.data.accounts as Array<{ name: string }>).map((a) => a.name);

  it('needs the admin token (401 without it or with a customer key)', async () => {
    const none = await request(t.url).get('/admin/v1/accounts');
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHORIZED');
    const customer = await admin.account('pro');
    const wrong = await request(t.url)
      .get('/admin/v1/accounts')
      .set('Authorization', `Bearer ${customer.key}`);
    expect(wrong.status).toBe(401);
  });

  it('lists every account newest first, with the page in meta', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.meta).toMatchObject({ limit: 20, offset: 0 });
    expect(res.body.meta.total).toBeGreaterThanOrEqual(3);
    const found = res.body.data.accounts as Array<{ id: number }>;
    expect(res.body.data.count).toBe(found.length);
    expect(found.map((a) => a.id)).toEqual([...found.map((a) => a.id)].sort((x, y) => y - x));
  });

  it('searches names case-insensitively, by substring', async () => {
    const res = await list(`?search=${encodeURIComponent(tag.toUpperCase())}`);
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(3);
    expect(res.body.data.accounts.map((a: { id: number }) => a.id)).toEqual([ids.c, ids.b, ids.a]);
    const one = res.body.data.accounts[2];
    expect(one).toEqual({
      id: ids.a,
      name: `Acme_${tag} 100%`,
      plan: 'pro',
      credits: 0,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      emails: [],
    });
  });

  it('takes % _ and \\ literally (an escaped LIKE pattern)', async () => {
    const q = async (text: string) => {
      const res = await list(`?search=${encodeURIComponent(text)}`);
      expect(res.status).toBe(200);
      return names(res);
    };
    expect(await q(`ACME_${tag}`)).toEqual([`Acme_${tag} 100%`]);
    expect(await q(`${tag} 100%`)).toEqual([`Acme_${tag} 100%`]);
    expect(await q(`${tag}%`)).toEqual([]);
    expect(await q(`acme%${tag}`)).toEqual([]);
    expect(await q(`_${tag}`)).toEqual([`Acme_${tag} 100%`]);
    expect(await q(`\\${tag}`)).toEqual([]);
    expect(await q(`${tag}\\`)).toEqual([]);
    expect(await q(`' OR 1=1 -- ${tag}`)).toEqual([]);
  });

  it('searches the e-mails of the account’s users, and shows them', async () => {
    const res = await list(`?search=${encodeURIComponent(`BILLING.${tag}@Acme`)}`);
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(1);
    expect(res.body.data.accounts[0]).toMatchObject({
      id: ids.c,
      emails: [`billing.${tag}@acme-mail.test`],
    });
  });

  it('pages with limit and offset; meta.total counts every match', async () => {
    const page = async (limit: number, offset: number) => {
      const res = await list(`?search=${tag}&limit=${limit}&offset=${offset}`);
      expect(res.status).toBe(200);
      expect(res.body.meta).toMatchObject({ total: 3, limit, offset });
      return res.body.data.accounts.map((a: { id: number }) => a.id);
    };
    expect(await page(2, 0)).toEqual([ids.c, ids.b]);
    expect(await page(2, 2)).toEqual([ids.a]);
    expect(await page(1, 1)).toEqual([ids.b]);
    expect(await page(100, 3)).toEqual([]);
    expect(await page(1, 2_147_483_647)).toEqual([]);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=2147483648', 'offset'],
    ['offset=x', 'offset'],
    ['limit=1&limit=2', 'limit'],
    ['search=', 'search'],
    [`search=${'a'.repeat(255)}`, 'search'],
    ['search=a&search=b', 'search'],
  ])('422 VALIDATION_ERROR for %s', async (query, field) => {
    const res = await list(`?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body.error)).toContain(field);
  });
});
