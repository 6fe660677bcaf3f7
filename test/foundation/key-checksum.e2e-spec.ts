import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { Response } from 'supertest';
import { ApiKeyCache } from '../../libs/accounts/src/api-key-cache';
import { ApiKeysRepository } from '../../libs/accounts/src/api-keys.repository';
import * as keySecrets from '../../libs/accounts/src/api-key-secret';
import { McpTokenAuthenticator } from '../../apps/api/src/mcp/mcp-token-authenticator';
import { AdminClient, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';

/** Keys with a checksum (docs/api-keys.md, docs/decisions/0005-key-checksum.md). */
describe('API key checksum: bad keys refused without a lookup, legacy keys still work', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp();
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  const expectInvalid = (res: Response) => {
    expect(res.status).toBe(401);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    expect(res.body.error.message).toBe('Invalid or revoked API key.');
  };

  /** A current-format key with one checksum character changed. */
  const checksumFailing = (key: string) => key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');

  it('issues keys in the checksummed format (admin API)', async () => {
    const account = await admin.account('pro');
    expect(account.key).toMatch(/^seo_live_[0-9A-Za-z]{49}$/);
    expect(keySecrets.keyFormat(account.key)).toBe('current');
    const ok = await t.http().get('/api/v1/usage').set(bearer(account.key));
    expect(ok.status).toBe(200);
  });

  it('refuses a checksum-failing key with no SQL, no cache lookup, no hashing', async () => {
    const account = await admin.account('pro');
    const repo = t.app.get(ApiKeysRepository);
    const cache = t.app.get(ApiKeyCache);
    const findOwner = jest.spyOn(repo, 'findOwner');
    const cacheGet = jest.spyOn(cache, 'get');
    const hashes = jest.spyOn(keySecrets, 'hashSecret');
    // Every statement any pg client sends, filtered to the ones about keys (other parts of the
    // app, e.g. workers, may query meanwhile).
    const query = jest.spyOn(Client.prototype, 'query');
    const keyStatements = () =>
      query.mock.calls.filter(([q]) => JSON.stringify(q ?? '').includes('api_keys')).length;
    try {
      const wrong = [
        checksumFailing(account.key),
        // A different body with the original checksum.
        account.key.slice(0, 9) + account.key.slice(10, 52) + 'x' + account.key.slice(52),
        `seo_live_${'A'.repeat(49)}`,
      ];
      for (const key of wrong) {
        expectInvalid(await t.http().get('/api/v1/usage').set(bearer(key)));
        expectInvalid(await t.http().get(`/api/v1/usage?api_key=${key}`));
      }
      expect(findOwner).not.toHaveBeenCalled();
      expect(cacheGet).not.toHaveBeenCalled();
      expect(hashes).not.toHaveBeenCalled();
      expect(keyStatements()).toBe(0);

      // The control: the same spies see the lookup of a real key the cache does not know.
      const fresh = await admin.account('pro');
      const before = keyStatements();
      expect((await t.http().get('/api/v1/usage').set(bearer(fresh.key))).status).toBe(200);
      expect(findOwner).toHaveBeenCalledTimes(1);
      expect(keyStatements()).toBeGreaterThan(before);
    } finally {
      findOwner.mockRestore();
      cacheGet.mockRestore();
      hashes.mockRestore();
      query.mockRestore();
    }
  });

  it('the hosted MCP endpoint refuses a checksum-failing key without a lookup too', async () => {
    const account = await admin.account('pro');
    const findOwner = jest.spyOn(t.app.get(ApiKeysRepository), 'findOwner');
    const tokens = jest.spyOn(t.app.get(McpTokenAuthenticator), 'authenticate');
    try {
      const res = await t
        .http()
        .post('/mcp')
        .set(bearer(checksumFailing(account.key)))
        .set('Accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(res.status).toBe(401);
      expect(findOwner).not.toHaveBeenCalled();
      expect(tokens).not.toHaveBeenCalled(); // not tried as an OAuth token either
    } finally {
      findOwner.mockRestore();
      tokens.mockRestore();
    }
  });

  it('a key issued before the checksum (legacy format) still authenticates', async () => {
    const account = await admin.account('pro');
    const legacy = `seo_live_${randomBytes(32).toString('base64url')}`;
    expect(keySecrets.keyFormat(legacy)).toBe('legacy');
    await t.app
      .get(ApiKeysRepository)
      .create(account.id, 'legacy key', legacy.slice(0, 13), keySecrets.hashSecret(legacy));
    const res = await t.http().get('/api/v1/usage').set(bearer(legacy));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });

  it('an unknown legacy-shaped key is looked up once, then refused from the negative cache', async () => {
    const findOwner = jest.spyOn(t.app.get(ApiKeysRepository), 'findOwner');
    try {
      const unknown = `seo_live_${randomBytes(32).toString('base64url')}`;
      expectInvalid(await t.http().get('/api/v1/usage').set(bearer(unknown)));
      expect(findOwner).toHaveBeenCalledTimes(1);
      if (t.app.get(ApiKeyCache).enabled) {
        expectInvalid(await t.http().get('/api/v1/usage').set(bearer(unknown)));
        expect(findOwner).toHaveBeenCalledTimes(1);
      }
    } finally {
      findOwner.mockRestore();
    }
  });
});
