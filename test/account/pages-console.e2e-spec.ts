import { AdminClient, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { cookiePair, createPerson, hiddenValue, pageSignIn, setCookies } from './pages-helpers';

/** The console's scripts (account-area/assets), in the order the page loads them. */
const CONSOLE_SCRIPTS = [
  'console-common',
  'console-nav',
  'console-usage',
  'console-keys',
  'console-rank',
  'console-ai-visibility',
  'console-connections',
  'console-gsc',
  'console-webhooks',
  'console-audits',
  'console-alerts',
  'console-password',
];

/** Contract: docs/api.md, "Account area" (the pages: GET /account, the console). */
describe('Account pages: the console', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:pages-console` } });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  const consolePage = (cookie: string) => t.http().get('/account').set('Cookie', cookie);

  it('Pro: plan, calls used of the allowance as a bar, quotas, credits, keys, create form, connected apps, password, sign out', async () => {
    const person = await createPerson(t.url, 'pro');
    await admin.credits(person.account.id, 7);
    for (let i = 0; i < 3; i++) {
      expect((await t.http().get('/api/v1/usage').set(bearer(person.account.key))).status).toBe(
        200,
      );
    }
    const cookie = await pageSignIn(t.url, person);
    const res = await consolePage(cookie);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    const html = res.text;

    expect(html).toContain(person.email);
    expect(html).toMatch(/Plan: <strong id="plan">Pro<\/strong>/);
    expect(html).toMatch(/<strong>3<\/strong> of 20 API calls used this month\./);
    expect(html).toMatch(
      /<progress id="calls-bar" max="20" value="3" aria-labelledby="calls-text">/,
    );
    expect(html).toMatch(
      /Keyword research lookups<\/th><td data-label="Used">0<\/td><td data-label="Of">100</,
    );
    expect(html).toMatch(
      /Backlinks fetches<\/th><td data-label="Used">0<\/td><td data-label="Of">50</,
    );
    expect(html).toMatch(
      /Tracked keywords<\/th><td data-label="Used">0<\/td><td data-label="Of">500</,
    );
    expect(html).toMatch(
      /AI-visibility projects<\/th><td data-label="Used">0<\/td><td data-label="Of">1</,
    );
    expect(html).toMatch(
      /Prompts per AI-visibility project \(largest\)<\/th><td data-label="Used">0<\/td><td data-label="Of">25</,
    );
    expect(html).toMatch(/Credits: <strong id="credits">7<\/strong>/);

    // The admin-made key, without its secret; a Revoke button.
    expect(html).toContain(`data-key-id="${person.account.keyId}"`);
    expect(html).toContain(`data-revoke-key="${person.account.keyId}"`);
    expect(html).toContain(`<code>${person.account.key.slice(0, 12)}`);
    expect(html).not.toContain(person.account.key);
    for (const heading of ['Label', 'Prefix', 'Created', 'Last used'])
      expect(html).toContain(`<th scope="col">${heading}</th>`);

    // Create form (input named label, with its label), the shown-once panel and its warning.
    expect(html).toMatch(/<label for="key-label">[^<]+<\/label>/);
    expect(html).toMatch(/<input id="key-label" name="label" type="text"/);
    expect(html).toMatch(/It will not be shown again/);
    expect(html).toContain('id="copy-key"');

    expect(html).toContain('id="connections-list"');
    expect(html).toMatch(/<label for="current-password">/);
    expect(html).toMatch(/<label for="new-password">/);
    expect(html).toMatch(/<form method="post" action="\/account\/sign-out"/);
    expect(hiddenValue(html, 'csrf_token')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Our own scripts (the shared helpers, then one per section) and stylesheet; no inline script.
    expect(
      [
        ...html.matchAll(/<script src="\/assets\/([a-z-]+)\.[0-9a-f]{12}\.js" defer><\/script>/g),
      ].map((m) => m[1]),
    ).toEqual(CONSOLE_SCRIPTS);
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/site\.[0-9a-f]{12}\.css">/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/ style="/);
    // Rank tracking (issue 38): the section, its labelled inputs, the API's defaults selected.
    expect(html).toContain('<h2 id="rank-heading">Rank tracking</h2>');
    for (const id of [
      'rank-domain',
      'rank-name',
      'rank-keywords',
      'rank-country',
      'rank-language',
      'rank-device',
    ])
      expect(html).toContain(`<label for="${id}">`);
    expect(html).toContain('<option value="US" selected>United States (US)</option>');
    expect(html).toContain('<option value="en" selected>en</option>');
    expect(html).toContain('<option value="desktop" selected>desktop</option>');
    for (const m of html.matchAll(/(?:src|href|action)="([^"]*)"/g)) expect(m[1]).toMatch(/^[/#]/);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('labels are escaped in the keys table', async () => {
    const person = await createPerson(t.url, 'agency');
    const label = '<script>alert("x")</script> & <b>co</b>';
    const created = await admin.post(`/accounts/${person.account.id}/api-keys`, { label });
    expect(created.status).toBe(201);
    const res = await consolePage(await pageSignIn(t.url, person));
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script>alert');
    expect(res.text).not.toContain('<b>co</b>');
    expect(res.text).toContain(
      '<td data-label="Label" class="key-label">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;co&lt;/b&gt;</td>',
    );
    expect(res.text).toContain(
      'data-label="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;co&lt;/b&gt;"',
    );
  });

  it('keys created and revoked through /account/v1 show up newest first, revoked ones marked', async () => {
    const person = await createPerson(t.url, 'pro');
    const cookie = await pageSignIn(t.url, person);
    const made = await t
      .http()
      .post('/account/v1/api-keys')
      .set('Cookie', cookie)
      .set('Origin', t.url)
      .send({ label: 'laptop script' });
    expect(made.status).toBe(201);
    const revoked = await t
      .http()
      .delete(`/account/v1/api-keys/${person.account.keyId}`)
      .set('Cookie', cookie)
      .set('Origin', t.url);
    expect(revoked.status).toBe(200);

    const html = (await consolePage(cookie)).text;
    expect(html).not.toContain(made.body.data.key);
    const newIdx = html.indexOf(`data-key-id="${made.body.data.id}"`);
    const oldIdx = html.indexOf(`data-key-id="${person.account.keyId}"`);
    expect(newIdx).toBeGreaterThan(0);
    expect(oldIdx).toBeGreaterThan(newIdx);
    expect(html).toContain(`data-revoke-key="${made.body.data.id}"`);
    expect(html).not.toContain(`data-revoke-key="${person.account.keyId}"`);
    expect(html).toMatch(/Revoked \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  });

  it.each(['free', 'starter'] as const)(
    '%s: a clear sentence why keys cannot be created, no create form; the API refuses with 403',
    async (plan) => {
      const person = await createPerson(t.url, plan);
      const cookie = await pageSignIn(t.url, person);
      const res = await consolePage(cookie);
      expect(res.status).toBe(200);
      const title = plan === 'free' ? 'Free' : 'Starter';
      expect(res.text).toContain(
        `Your plan (${title}) does not include API access, so API keys cannot be created.`,
      );
      expect(res.text).not.toContain('id="create-key-form"');
      expect(res.text).not.toContain('name="label"');
      expect(res.text).not.toContain('<progress');

      const refused = await t
        .http()
        .post('/account/v1/api-keys')
        .set('Cookie', cookie)
        .set('Origin', t.url)
        .send({ label: 'not allowed' });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
    },
  );

  it('an unlimited allowance is said in words, without a bar', async () => {
    const person = await createPerson(t.url, 'agency');
    await admin.patch(`/accounts/${person.account.id}`, {
      overrides: { api_calls_per_month: 'unlimited' },
    });
    const res = await consolePage(await pageSignIn(t.url, person));
    expect(res.text).toMatch(/API calls this month \(your allowance is unlimited\)\./);
    expect(res.text).not.toContain('<progress');
  });

  it('sign out: the form needs its CSRF token (403, still signed in); then 303 to sign-in and the session is over', async () => {
    const person = await createPerson(t.url, 'pro');
    const cookie = await pageSignIn(t.url, person);
    const csrf = hiddenValue((await consolePage(cookie)).text, 'csrf_token')!;

    const missing = await t
      .http()
      .post('/account/sign-out')
      .type('form')
      .set('Cookie', cookie)
      .send({});
    expect(missing.status).toBe(403);
    expect(missing.text).toContain('nothing changed');
    const wrong = await t
      .http()
      .post('/account/sign-out')
      .type('form')
      .set('Cookie', cookie)
      .send({ csrf_token: 'y'.repeat(43) });
    expect(wrong.status).toBe(403);
    const crossSite = await t
      .http()
      .post('/account/sign-out')
      .type('form')
      .set('Cookie', cookie)
      .set('Origin', 'https://evil.example')
      .send({ csrf_token: csrf });
    expect(crossSite.status).toBe(403);
    expect((await consolePage(cookie)).status).toBe(200);

    const out = await t
      .http()
      .post('/account/sign-out')
      .type('form')
      .set('Cookie', cookie)
      .set('Origin', t.url)
      .send({ csrf_token: csrf });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/account/sign-in?signed_out=1');
    expect(setCookies(out).seo_session).toMatch(/Max-Age=0/);

    const after = await consolePage(cookie);
    expect(after.status).toBe(303);
    expect(after.headers.location).toBe('/account/sign-in');
    expect((await t.http().get('/account/v1/me').set('Cookie', cookie)).status).toBe(401);

    const notice = await t.http().get('/account/sign-in?signed_out=1');
    expect(notice.text).toContain('You are signed out.');
  });

  it('a session ended elsewhere (signed out through the JSON API) sends the console back to sign-in', async () => {
    const person = await createPerson(t.url, 'pro');
    const cookie = await pageSignIn(t.url, person);
    const end = await t
      .http()
      .delete('/account/v1/session')
      .set('Cookie', cookie)
      .set('Origin', t.url);
    expect(end.status).toBe(200);
    const res = await consolePage(cookie);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/account/sign-in');
  });

  it('assets: script and stylesheet served by the API itself, versioned, nosniff; unknown names 404', async () => {
    const page = (await consolePage(await pageSignIn(t.url, await createPerson(t.url)))).text;
    const scriptUrls = [...page.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    const cssUrl = /<link rel="stylesheet" href="([^"]+)"/.exec(page)![1];

    expect(scriptUrls).toHaveLength(CONSOLE_SCRIPTS.length);
    for (const scriptUrl of scriptUrls) {
      const js = await t.http().get(scriptUrl);
      expect({ scriptUrl, status: js.status }).toEqual({ scriptUrl, status: 200 });
      expect(js.headers['content-type']).toMatch(/^text\/javascript/);
      expect(js.headers['x-content-type-options']).toBe('nosniff');
      expect(js.headers['cache-control']).toContain('immutable');
      expect(js.text).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
      expect(js.text).not.toMatch(/https?:\/\//);
    }
    // The shared helpers call the account API with the session cookie, same origin only.
    expect((await t.http().get(scriptUrls[0])).text).toContain("credentials: 'same-origin'");

    const css = await t.http().get(cssUrl);
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.text).not.toMatch(/@import|url\(/);

    // Content-hashed names: /assets/<name>.<12 hex digits of SHA-256>.<ext>.
    expect(scriptUrls.map((u) => /^\/assets\/([a-z-]+)\.[0-9a-f]{12}\.js$/.exec(u)?.[1])).toEqual(
      CONSOLE_SCRIPTS,
    );
    expect(cssUrl).toMatch(/^\/assets\/site\.[0-9a-f]{12}\.css$/);
    // Another hash (a page from before a deploy): today's file, revalidated every time.
    const stale = await t.http().get('/assets/site.000000000000.css');
    expect(stale.status).toBe(200);
    expect(stale.headers['cache-control']).toBe('no-cache');
    expect(stale.text).toBe(css.text);
    for (const path of [
      '/assets/site.css',
      '/assets/nope.000000000000.js',
      '/assets/__proto__',
      '/assets/..%2Fpage-assets.000000000000.ts',
      '/account/assets/account.css',
    ]) {
      expect({ path, status: (await t.http().get(path)).status }).toEqual({ path, status: 404 });
    }
  });

  it('the session cookie of the console never shows in the page', async () => {
    const cookie = await pageSignIn(t.url, await createPerson(t.url));
    const html = (await consolePage(cookie)).text;
    expect(html).not.toContain(cookie.split('=')[1]);
    expect(cookiePair(cookie)).toBe(cookie);
  });
});
