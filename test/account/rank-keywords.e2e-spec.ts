import request from 'supertest';
import { signIn } from '../helpers/account-session';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { TestApp, createTestApp } from '../helpers/test-app';

/**
 * GET /account/v1/rank/keywords (issue 38, the console's rank section): the answer of
 * GET /api/v1/rank/keywords for the signed-in account, paged alike with meta.next naming the
 * account route; not metered; another account's project is 404; no session is 401.
 */
describe('account area: GET /account/v1/rank/keywords', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp({ now: '2026-11-20T12:00:00Z' });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  const api = (acc: TestAccount, path: string) =>
    request(t.url).get(`/api/v1${path}`).set(bearer(acc.key));

  async function trackedProject(acc: TestAccount, domain: string, keywords: string[]) {
    const created = await request(t.url)
      .post('/api/v1/rank/projects')
      .set(bearer(acc.key))
      .send({ domain });
    const id = created.body.data.project_id as number;
    const added = await request(t.url)
      .post(`/api/v1/rank/projects/${id}/keywords`)
      .set(bearer(acc.key))
      .send({ keywords });
    expect(added.status).toBe(200);
    return { id, keywords: added.body.data.added as Array<{ keyword_id: number }> };
  }

  it('answers what /api/v1 answers, pages with a next link of its own, counts nothing', async () => {
    const acc = await admin.account('pro');
    const person = await signIn(t.url, acc.id);
    const { id, keywords } = await trackedProject(acc, 'console-list.example', ['k1', 'k2', 'k3']);
    const stored = await admin.post(`/tracked-keywords/${keywords[0].keyword_id}/checks`, {
      checks: [
        { check_date: '2026-11-18', position: 9 },
        { check_date: '2026-11-19', position: 5 },
      ],
    });
    expect(stored.status).toBe(200);

    const before = (await admin.get(`/accounts/${acc.id}`)).body.data.usage.api_calls_per_month;
    const page1 = await person.get(`/rank/keywords?project_id=${id}&limit=2`);
    const page2 = await person.get(`/rank/keywords?project_id=${id}&limit=2&offset=2`);
    const after = (await admin.get(`/accounts/${acc.id}`)).body.data.usage.api_calls_per_month;
    expect(after).toBe(before);

    expect(page1.status).toBe(200);
    const rest1 = await api(acc, `/rank/keywords?project_id=${id}&limit=2`);
    expect(page1.body.data).toEqual(rest1.body.data);
    expect(page1.body.data.keywords[0]).toMatchObject({
      keyword: 'k1',
      current_position: 5,
      previous_position: 9,
      position_change: 4,
    });
    expect(page1.body.meta).toMatchObject({
      project_id: id,
      limit: 2,
      offset: 0,
      total: 3,
      next: `/account/v1/rank/keywords?limit=2&offset=2&project_id=${id}`,
    });
    expect(page2.body.data.keywords.map((k: { keyword: string }) => k.keyword)).toEqual(['k3']);
    expect(page2.body.meta.next).toBeNull();
  });

  it("another account's project is 404, bad paging 422, no session 401", async () => {
    const acc = await admin.account('pro');
    const person = await signIn(t.url, acc.id);
    const other = await admin.account('pro');
    const { id } = await trackedProject(other, 'not-mine.example', ['x']);
    const theirs = await person.get(`/rank/keywords?project_id=${id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('NOT_FOUND');
    const bad = await person.get('/rank/keywords?limit=0&offset=-1');
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'limit',
      'offset',
    ]);
    expect((await request(t.url).get('/account/v1/rank/keywords')).status).toBe(401);
  });
});
