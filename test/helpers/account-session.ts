import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { AdminClient } from './fixtures';

/** A person signed in to the account area: requests carry their `seo_session` cookie. */
export interface SignedInUser {
  userId: number;
  accountId: number;
  email: string;
  password: string;
  /** `seo_session=<token>`, for a Cookie header (supertest or fetch). */
  cookie: string;
  get(path: string): request.Test;
  post(path: string, body?: unknown): request.Test;
  put(path: string, body: unknown): request.Test;
  patch(path: string, body: unknown): request.Test;
  delete(path: string): request.Test;
}

/**
 * Creates a user of the account through the admin API (`POST /admin/v1/accounts/:id/users`)
 * and signs them in (`POST /account/v1/session`). Paths are under /account/v1
 * (`signedIn.get('/api-keys')`).
 */
export async function signIn(url: string, accountId: number): Promise<SignedInUser> {
  const admin = new AdminClient(url);
  const email = `person-${randomBytes(5).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const created = await admin.post(`/accounts/${accountId}/users`, { email, password });
  if (created.status !== 201)
    throw new Error(`user create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const res = await request(url).post('/account/v1/session').send({ email, password });
  if (res.status !== 200)
    throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const session = setCookie.find((c) => c.startsWith('seo_session='));
  if (!session) throw new Error('sign-in answered without a seo_session cookie');
  const cookie = session.split(';')[0];
  const base = (path: string) => `/account/v1${path}`;
  return {
    userId: created.body.data.id as number,
    accountId,
    email,
    password,
    cookie,
    get: (path) => request(url).get(base(path)).set('Cookie', cookie),
    post: (path, body) => {
      const req = request(url).post(base(path)).set('Cookie', cookie);
      return body === undefined ? req : req.send(body as object);
    },
    put: (path, body) =>
      request(url)
        .put(base(path))
        .set('Cookie', cookie)
        .send(body as object),
    patch: (path, body) =>
      request(url)
        .patch(base(path))
        .set('Cookie', cookie)
        .send(body as object),
    delete: (path) => request(url).delete(base(path)).set('Cookie', cookie),
  };
}
