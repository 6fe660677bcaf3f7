import request from 'supertest';

export type Plan = 'free' | 'starter' | 'pro' | 'agency';

export interface TestAccount {
  id: number;
  key: string;
  keyId: number;
}

const adminAuth = () => ({ Authorization: `Bearer ${process.env.ADMIN_TOKEN}` });

/** Admin API helpers: fixtures are written through the admin API, not by inserting rows. */
export class AdminClient {
  constructor(private readonly url: string) {}

  post(path: string, body: unknown) {
    return request(this.url)
      .post(`/admin/v1${path}`)
      .set(adminAuth())
      .send(body as object);
  }

  get(path: string) {
    return request(this.url).get(`/admin/v1${path}`).set(adminAuth());
  }

  patch(path: string, body: unknown) {
    return request(this.url)
      .patch(`/admin/v1${path}`)
      .set(adminAuth())
      .send(body as object);
  }

  delete(path: string) {
    return request(this.url).delete(`/admin/v1${path}`).set(adminAuth());
  }

  /** A new account with one API key; overrides applied when given. */
  async account(
    plan: Plan = 'pro',
    overrides?: Record<string, unknown>,
    label = 'test key',
  ): Promise<TestAccount> {
    const created = await this.post('/accounts', {
      name: `test ${plan} ${Math.random().toString(36).slice(2, 8)}`,
      plan,
    });
    if (created.status !== 201)
      throw new Error(`account create failed: ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.data.id as number;
    if (overrides) {
      const patched = await this.patch(`/accounts/${id}`, { overrides });
      if (patched.status !== 200)
        throw new Error(`override failed: ${JSON.stringify(patched.body)}`);
    }
    const key = await this.post(`/accounts/${id}/api-keys`, { label });
    if (key.status !== 201) throw new Error(`key create failed: ${JSON.stringify(key.body)}`);
    return { id, key: key.body.data.key, keyId: key.body.data.id };
  }

  async credits(accountId: number, amount: number, reason = 'test'): Promise<number> {
    const res = await this.post(`/accounts/${accountId}/credits`, { amount, reason });
    if (res.status !== 200 && res.status !== 201)
      throw new Error(`credits failed: ${JSON.stringify(res.body)}`);
    return res.body.data.balance;
  }
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
