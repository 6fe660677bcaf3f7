import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { SERP_POSTBACK_PATH, postbackToken } from '@app/providers';
import { FakeDataForSeo } from '../fixtures/fake-dataforseo';
import { FakeGoogle } from '../fixtures/fake-google';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { signIn, SignedInUser } from '../helpers/account-session';
import { Spawned, freePort, spawnDist, waitForHttp } from '../helpers/processes';
import { connect, createPerson, token } from '../oauth/oauth-helpers';

/** Every kind of secret the steps below use; the last step checks that each one was used. */
const SECRET_KINDS = [
  'admin token',
  'DataForSEO password',
  'API key',
  'wrong API key',
  'wrong API key in a path',
  'test-shaped key in a path',
  'report (audit) id',
  'wrong admin token',
  'account password',
  'session cookie',
  'wrong password',
  'new password',
  'account-area API key',
  'webhook secret',
  'rotated webhook secret',
  'OAuth person password',
  'OAuth access token',
  'OAuth refresh token',
  'OAuth code verifier',
  'refreshed OAuth access token',
  'Google client secret',
  'Google authorization code',
  'Google connect state',
  'Google refresh token',
  'Google access token',
  'rank postback secret',
  'rank postback token',
  'wrong rank postback token',
];

/**
 * Log check (issue 13): the compiled API and worker run at LOG_LEVEL=trace with their
 * output captured; every kind of secret is used, rightly and wrongly, in every spelling a
 * client can send it; then no captured byte may contain any of them.
 */
describe('Logs: no secret in any line (API and worker at trace level)', () => {
  const fake = new FakeDataForSeo('log-check-login', `dfs-pw-${randomBytes(12).toString('hex')}`);
  const google = new FakeGoogle();
  const adminToken = process.env.ADMIN_TOKEN!;
  const postbackSecret = `rank-postback-${randomBytes(16).toString('hex')}`;
  const secrets: Array<[kind: string, value: string]> = [];
  const processes: Spawned[] = [];
  let base: string;
  let admin: AdminClient;
  let account: TestAccount;
  let user: SignedInUser;

  beforeAll(async () => {
    await fake.start();
    await google.start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    google.redirectUris.add(`${base}/account/gsc/callback`);
    const env = {
      ...fake.env(),
      ...google.env(),
      PORT: String(port),
      PUBLIC_BASE_URL: base,
      LOG_LEVEL: 'trace',
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}:logcheck`,
      RANK_POSTBACK_SECRET: postbackSecret,
    };
    processes.push(spawnDist('apps/api/src/main.js', env));
    processes.push(spawnDist('apps/worker/src/main.js', env));
    await waitForHttp(`${base}/health/ready`);
    admin = new AdminClient(base);
    account = await admin.account('agency', {
      api_calls_per_month: 'unlimited',
      requests_per_minute: 100_000,
    });
    await admin.credits(account.id, 20);
    secrets.push(['admin token', adminToken], ['DataForSEO password', fake.password]);
    secrets.push(['API key', account.key]);
  }, 60_000);

  afterAll(async () => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await fake.close();
    await google.close();
  });

  it('uses the API key in the header and in every query spelling, rightly and wrongly', async () => {
    const wrong = `seo_live_${randomBytes(16).toString('hex')}`;
    secrets.push(['wrong API key', wrong]);
    for (const key of [account.key, wrong]) {
      await request(base).get('/api/v1/usage').set(bearer(key));
      await request(base).get('/api/v1/usage').set('Authorization', `bearer  ${key}`);
      for (const query of [
        `?api_key=${key}`,
        `?api%5Fkey=${key}`,
        `?API_KEY=${key}`,
        `?Api%5fKey=${key}`,
        `?api_key[]=${key}`,
        `?api_key%5B%5D=${key}`,
        `?x=1;api_key=${key}`,
        `;api_key=${key}`,
        `?x=1#api_key=${key}`,
        `?x=1?api_key=${key}`,
        `?api_key=${key}&api_key=${key}`,
      ]) {
        await request(base).get(`/api/v1/usage${query}`);
        await request(base).get(`/api/v1/no-such-route${query}`);
      }
    }
    const ok = await request(base).get(`/api/v1/usage?api%5Fkey=${account.key}`);
    expect(ok.status).toBe(200);
  });

  it('pastes API keys into the URL path and a value, in every spelling (issue 35): never echoed', async () => {
    const wrong = `seo_live_${randomBytes(32).toString('base64url')}`;
    const test = `seo_test_${randomBytes(32).toString('base64url')}`;
    secrets.push(['wrong API key in a path', wrong], ['test-shaped key in a path', test]);
    for (const key of [account.key, wrong, test]) {
      const spellings = [
        key,
        key.replace(/_/g, '%5F'),
        key.replace(/_/g, '%255F'),
        [...key].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
      ];
      for (const spelled of spellings)
        for (const path of [
          `/api/v1/usage/${spelled}`,
          `/api/v1/${spelled}`,
          `/${spelled}`,
          `/api/v1/usage/x${spelled}.json`,
          `/account/v1/${spelled}`,
          `/reports/audits/${spelled}`,
          `/api/v1/backlinks?domain=${spelled}`,
        ]) {
          for (const res of [
            await request(base).get(path),
            await request(base).get(path).set(bearer(account.key)),
            // The admin token, not counted as a failure: what the admin API echoes of a path.
            await request(base).get(`/admin/v1/accounts/${spelled}`).set(bearer(adminToken)),
          ]) {
            expect(res.status).toBeGreaterThanOrEqual(400);
            expect(res.text).not.toContain(key);
            expect(res.text).not.toContain(key.slice(9, 40));
          }
        }
    }
  });

  it('opens report pages and their files by audit id, in every spelling (issue 35)', async () => {
    const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    const auditId = `aud_${[...randomBytes(22)].map((b) => BASE62[b % 62]).join('')}`;
    secrets.push(['report (audit) id', auditId]);
    for (const spelled of [auditId, auditId.replace('_', '%5F'), `%61${auditId.slice(1)}`])
      for (const path of [
        `/reports/audits/${spelled}`,
        `/reports/audits/${spelled}/pages.json`,
        `/reports/audits/${spelled}/pages.csv`,
        `/REPORTS/AUDITS/${spelled}`,
        `/reports/audits/${spelled}?x=1`,
      ]) {
        const res = await request(base).get(path);
        expect(res.status).toBe(404);
        expect(res.text).not.toContain(auditId);
      }
  });

  it('calls the DataForSEO provider (answers and failures) with its password', async () => {
    const res = await request(base)
      .get('/api/v1/backlinks')
      .query({ domain: 'logcheck.example' })
      .set(bearer(account.key));
    expect(res.status).toBe(200);
    expect(res.body.meta.provider).toBe('dataforseo');
    fake.failNext('/v3/backlinks/summary/live', { http: 401 }, { http: 401 }, { http: 401 });
    const failed = await request(base)
      .get('/api/v1/backlinks')
      .query({ domain: 'logcheck-fail.example' })
      .set(bearer(account.key));
    expect(failed.status).toBe(502);
    expect(fake.requests.length).toBeGreaterThan(0);
  });

  it('uses the admin token, rightly and wrongly', async () => {
    const wrong = `wrong-admin-${randomBytes(12).toString('hex')}`;
    secrets.push(['wrong admin token', wrong]);
    expect((await admin.get(`/accounts/${account.id}`)).status).toBe(200);
    const bad = await request(base)
      .get(`/admin/v1/accounts/${account.id}`)
      .set('Authorization', `Bearer ${wrong}`);
    expect(bad.status).toBe(401);
    // No such route: the URL with the token in it reaches the access log.
    const inQuery = await request(base).get(`/admin/v1/no-such-route?token=${adminToken}`);
    expect(inQuery.status).toBe(404);
  });

  it('receives rank postbacks with a right and a wrong token (the token is in the URL)', async () => {
    const tag = 'rk:1:2026-09-01:1';
    const right = postbackToken(postbackSecret, tag);
    const wrong = postbackToken(`wrong-${postbackSecret}`, tag);
    secrets.push(['rank postback secret', postbackSecret]);
    secrets.push(['rank postback token', right], ['wrong rank postback token', wrong]);
    const url = (tok: string) =>
      `${SERP_POSTBACK_PATH}?id=t-1&tag=${encodeURIComponent(tag)}&token=${tok}`;
    const refused = await request(base).post(url(wrong)).send(Buffer.from('x'));
    expect(refused.status).toBe(401);
    // The right token, a body that is not gzip: refused after authentication (415).
    const notGzip = await request(base)
      .post(url(right))
      .set('Content-Type', 'application/json')
      .send('{"tasks":[]}');
    expect(notGzip.status).toBe(415);
  });

  it('signs in to the account area (password, session cookie), creates a key, reads the webhook secret', async () => {
    user = await signIn(base, account.id);
    secrets.push(['account password', user.password]);
    secrets.push(['session cookie', user.cookie.split('=')[1]]);
    const wrongPassword = `pw-wrong-${randomBytes(10).toString('hex')}`;
    secrets.push(['wrong password', wrongPassword]);
    const refused = await request(base)
      .post('/account/v1/session')
      .send({ email: user.email, password: wrongPassword });
    expect(refused.status).toBe(401);
    expect((await user.get('/me')).status).toBe(200);
    const newPassword = `pw-new-${randomBytes(10).toString('hex')}`;
    secrets.push(['new password', newPassword]);
    const changed = await user.post('/password', {
      current_password: user.password,
      new_password: newPassword,
    });
    expect(changed.status).toBe(200);
    const created = await user.post('/api-keys', { label: 'log check' });
    expect(created.status).toBe(201);
    const newKey = JSON.stringify(created.body.data).match(/seo_live_[A-Za-z0-9_-]+/)?.[0];
    expect(newKey).toBeDefined();
    secrets.push(['account-area API key', newKey!]);
    expect((await request(base).get(`/api/v1/usage?api_key=${newKey}`)).status).toBe(200);
    // The webhook signing secret: read and rotated.
    const webhook = await user.get('/webhook-secret');
    expect(webhook.status).toBe(200);
    expect(typeof webhook.body.data.secret).toBe('string');
    secrets.push(['webhook secret', webhook.body.data.secret]);
    const rotated = await user.post('/webhook-secret/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).not.toBe(webhook.body.data.secret);
    secrets.push(['rotated webhook secret', rotated.body.data.secret]);
  });

  it('connects an OAuth client and uses its access and refresh tokens', async () => {
    const person = await createPerson(base);
    secrets.push(['OAuth person password', person.password]);
    const c = await connect(base, person);
    secrets.push(['OAuth access token', c.access], ['OAuth refresh token', c.refresh]);
    secrets.push(['OAuth code verifier', c.verifier]);
    const listed = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${c.access}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(listed.status).toBe(200);
    const inQuery = await fetch(`${base}/mcp?access_token=${c.access}`, { method: 'POST' });
    expect(inQuery.status).toBe(401);
    const refreshed = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: c.refresh,
      client_id: c.client.client_id as string,
    });
    expect(refreshed.status).toBe(200);
    expect(typeof refreshed.json.access_token).toBe('string');
    secrets.push(['refreshed OAuth access token', refreshed.json.access_token as string]);
  });

  it('connects Google Search Console, adds a site and disconnects (revoked at Google)', async () => {
    secrets.push(['Google client secret', google.clientSecret]);
    const { callback } = await google.consentThrough(base, user.cookie);
    secrets.push(['Google authorization code', callback.searchParams.get('code')!]);
    secrets.push(['Google connect state', callback.searchParams.get('state')!]);
    const done = await request(base)
      .get(callback.pathname + callback.search)
      .set('Cookie', user.cookie);
    expect(done.status).toBe(303);
    const [refresh] = [...google.refreshTokens.keys()];
    const [access] = [...google.accessTokens.keys()];
    secrets.push(['Google refresh token', refresh], ['Google access token', access]);
    const [conn] = (await user.get('/gsc/connections')).body.data;
    const added = await user.post('/gsc/properties', {
      connection_id: conn.connection_id,
      site_url: 'sc-domain:example.com',
    });
    expect(added.status).toBe(201);
    expect((await user.delete(`/gsc/connections/${conn.connection_id}`)).status).toBe(200);
    expect(google.refreshTokens.get(refresh)!.revoked).toBe(true);
  });

  it('after shutdown, no captured output of either process contains any secret', async () => {
    for (const p of processes) p.child.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.exited));
    const [api, worker] = processes.map((p) => p.stdout() + p.stderr());
    // The run was logged in detail (so an absence means something).
    expect(api.split('\n').filter((l) => l.includes('"req"')).length).toBeGreaterThan(50);
    expect(worker.length).toBeGreaterThan(0);
    // Every step above used its secrets (a step skipped or filtered out fails here).
    expect(secrets.map(([kind]) => kind).sort()).toEqual([...SECRET_KINDS].sort());
    const leaks: string[] = [];
    for (const [kind, value] of secrets) {
      expect(value.length).toBeGreaterThanOrEqual(12);
      for (const [name, text] of [
        ['api', api],
        ['worker', worker],
      ])
        if (text.includes(value) || text.includes(encodeURIComponent(value)))
          leaks.push(`${kind} in ${name} output`);
    }
    expect(leaks).toEqual([]);
    // No key-shaped value at all (a key's shown prefix is `seo_live_` and 4 characters).
    const keyShaped = /seo(_|%5f|%255f)(live|test)(_|%5f|%255f)[A-Za-z0-9_-]{8}/gi;
    expect(api.match(keyShaped) ?? []).toEqual([]);
    expect(worker.match(keyShaped) ?? []).toEqual([]);
    // An audit id is logged with its first four characters only.
    expect(api).toContain('aud_');
    expect(api.match(/aud_[0-9A-Za-z]{5,}/g) ?? []).toEqual([]);
  }, 30_000);
});
