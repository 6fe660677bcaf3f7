import request from 'supertest';
import { AdminClient } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';

const RECORD_TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const PASSWORD = 'a long enough password';
const unique = () => Math.random().toString(36).slice(2, 10);

function sessionCookie(res: request.Response): string {
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const found = cookies.find((c) => c.startsWith('seo_session='));
  if (!found) throw new Error(`no session cookie: ${res.status} ${JSON.stringify(res.body)}`);
  return found.split(';')[0];
}

describe('Admin API: users of an account (docs/api.md, "Account area")', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:users` } });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  it('creates a user: 201 {id, email, account_id, created_at}, email trimmed, case kept', async () => {
    const acc = await admin.account('pro');
    const email = `  Person.${unique()}@Example.COM `;
    const res = await admin.post(`/accounts/${acc.id}/users`, { email, password: PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      email: email.trim(),
      account_id: acc.id,
      created_at: expect.stringMatching(RECORD_TS),
    });
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
    expect(JSON.stringify(res.body)).not.toContain('scrypt');
  });

  it('lists the account’s users (never a password or hash); another account’s are not there', async () => {
    const acc = await admin.account('agency');
    const other = await admin.account('pro');
    const emails = [`a.${unique()}@example.com`, `b.${unique()}@example.com`];
    for (const email of emails) {
      expect(
        (await admin.post(`/accounts/${acc.id}/users`, { email, password: PASSWORD })).status,
      ).toBe(201);
    }
    await admin.post(`/accounts/${other.id}/users`, {
      email: `c.${unique()}@example.com`,
      password: PASSWORD,
    });
    const res = await admin.get(`/accounts/${acc.id}/users`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(
      emails.map((email) => ({
        id: expect.any(Number),
        email,
        account_id: acc.id,
        created_at: expect.stringMatching(RECORD_TS),
        last_sign_in_at: null,
      })),
    );
    expect(JSON.stringify(res.body)).not.toMatch(/password|scrypt/);

    await request(t.url)
      .post('/account/v1/session')
      .send({ email: emails[0], password: PASSWORD })
      .expect(200);
    const after = await admin.get(`/accounts/${acc.id}/users`);
    expect(after.body.data[0].last_sign_in_at).toMatch(RECORD_TS);
    expect(after.body.data[1].last_sign_in_at).toBeNull();
  });

  it('an email in use, in any case and on any account, is 422 VALIDATION_ERROR', async () => {
    const acc = await admin.account('pro');
    const other = await admin.account('pro');
    const email = `dup.${unique()}@example.com`;
    expect(
      (await admin.post(`/accounts/${acc.id}/users`, { email, password: PASSWORD })).status,
    ).toBe(201);
    for (const [id, again] of [
      [acc.id, email],
      [acc.id, email.toUpperCase()],
      [other.id, `  ${email.replace('dup', 'DUP')}  `],
    ] as const) {
      const res = await admin.post(`/accounts/${id}/users`, { email: again, password: PASSWORD });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details).toEqual([{ field: 'email', message: expect.any(String) }]);
    }
    expect((await admin.get(`/accounts/${acc.id}/users`)).body.data).toHaveLength(1);
    expect((await admin.get(`/accounts/${other.id}/users`)).body.data).toHaveLength(0);
  });

  it('a password outside 12-256 characters is 422 (length in characters, not trimmed)', async () => {
    const acc = await admin.account('pro');
    for (const password of ['a'.repeat(11), ' '.repeat(5) + 'abcdef', 'a'.repeat(257), '']) {
      const res = await admin.post(`/accounts/${acc.id}/users`, {
        email: `p.${unique()}@example.com`,
        password,
      });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain('password');
      expect(JSON.stringify(res.body)).not.toContain(password || '""""');
    }
    for (const password of ['a'.repeat(12), '😀'.repeat(12), 'a'.repeat(256)]) {
      const res = await admin.post(`/accounts/${acc.id}/users`, {
        email: `p.${unique()}@example.com`,
        password,
      });
      expect(res.status).toBe(201);
    }
  });

  it('wrong types and missing members are 422; an unknown account is 404', async () => {
    const acc = await admin.account('pro');
    for (const body of [
      {},
      { email: 42, password: PASSWORD },
      { email: `x.${unique()}@example.com`, password: 123456789012345 },
      { email: 'not an email', password: PASSWORD },
      { email: `x.${unique()}@example.com`, password: [PASSWORD] },
      { email: null, password: PASSWORD },
    ]) {
      const res = await admin.post(`/accounts/${acc.id}/users`, body);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const missing = await admin.post('/accounts/2147483000/users', {
      email: `x.${unique()}@example.com`,
      password: PASSWORD,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    expect((await admin.get('/accounts/2147483000/users')).status).toBe(404);
  });

  it('admin token required', async () => {
    const acc = await admin.account('pro');
    const res = await request(t.url)
      .post(`/admin/v1/accounts/${acc.id}/users`)
      .send({ email: `x.${unique()}@example.com`, password: PASSWORD });
    expect(res.status).toBe(401);
  });

  it('DELETE /users/:id answers the removed user and ends their sessions at once; unknown → 404', async () => {
    const acc = await admin.account('pro');
    const email = `gone.${unique()}@example.com`;
    const created = await admin.post(`/accounts/${acc.id}/users`, { email, password: PASSWORD });
    const signIn = () =>
      request(t.url).post('/account/v1/session').send({ email, password: PASSWORD });
    const cookies = [sessionCookie(await signIn()), sessionCookie(await signIn())];
    for (const cookie of cookies) {
      await request(t.url).get('/account/v1/me').set('Cookie', cookie).expect(200);
    }

    const res = await admin.delete(`/users/${created.body.data.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: created.body.data.id,
      email,
      account_id: acc.id,
      created_at: expect.stringMatching(RECORD_TS),
      last_sign_in_at: expect.stringMatching(RECORD_TS),
    });
    for (const cookie of cookies) {
      const me = await request(t.url).get('/account/v1/me').set('Cookie', cookie);
      expect(me.status).toBe(401);
      expect(me.body.error.code).toBe('UNAUTHORIZED');
    }
    expect((await signIn()).status).toBe(401);
    expect((await admin.get(`/accounts/${acc.id}/users`)).body.data).toEqual([]);
    expect((await admin.delete(`/users/${created.body.data.id}`)).status).toBe(404);
    expect((await admin.delete('/users/abc')).status).toBe(404);

    // The email is free again.
    expect(
      (await admin.post(`/accounts/${acc.id}/users`, { email, password: PASSWORD })).status,
    ).toBe(201);
  });
});
