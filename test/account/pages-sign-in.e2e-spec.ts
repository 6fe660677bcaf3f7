import { createTestApp, TestApp } from '../helpers/test-app';
import {
  cookiePair,
  createPerson,
  hiddenValue,
  openSignIn,
  PagePerson,
  pageSignIn,
  postSignIn,
  setCookies,
} from './pages-helpers';

/** Contract: docs/api.md, "Account area" (GET/POST /account/sign-in, GET /account). */
describe('Account pages: sign-in', () => {
  let t: TestApp;
  let person: PagePerson;

  beforeAll(async () => {
    // Its own Redis prefix: the per-IP sign-in counter (all tests come from 127.0.0.1) is
    // not shared with the other suites of the run.
    t = await createTestApp({ env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:pages-sign-in` } });
    person = await createPerson(t.url, 'pro');
  });
  afterAll(() => t.close());

  it('GET /account/sign-in: a labelled form posting email and password, a CSRF token, strict headers', async () => {
    const res = await t.http().get('/account/sign-in');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    const html = res.text;
    expect(html).toMatch(/<form method="post" action="\/account\/sign-in"/);
    expect(html).toMatch(/<label for="email">Email<\/label>/);
    expect(html).toMatch(/<input id="email" name="email" type="email"/);
    expect(html).toMatch(/<label for="password">Password<\/label>/);
    expect(html).toMatch(/<input id="password" name="password" type="password"/);
    expect(html).toMatch(/<button type="submit"[^>]*>Sign in<\/button>/);
    expect(hiddenValue(html, 'csrf_token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(html).toContain('name="viewport"');

    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    // No outside resources: every src/href is a path on this origin.
    for (const m of html.matchAll(/(?:src|href)="([^"]*)"/g)) expect(m[1]).toMatch(/^[/#]/);
    // No inline script.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);

    const csrfCookie = setCookies(res).seo_signin_csrf;
    expect(csrfCookie).toMatch(/HttpOnly/i);
    expect(csrfCookie).toMatch(/SameSite=Strict/i);
    expect(csrfCookie).toMatch(/Path=\/account\/sign-in/);
    expect(cookiePair(csrfCookie)).toBe(`seo_signin_csrf=${hiddenValue(html, 'csrf_token')}`);
  });

  it('GET /account signed out: 303 to /account/sign-in', async () => {
    const res = await t.http().get('/account');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/account/sign-in');
    const stale = await t.http().get('/account').set('Cookie', 'seo_session=not-a-session');
    expect(stale.status).toBe(303);
    expect(stale.headers.location).toBe('/account/sign-in');
  });

  it('success: 303 to /account with the session cookie (HttpOnly, SameSite=Lax, Path=/); the console opens', async () => {
    const form = await openSignIn(t.url);
    const res = await postSignIn(
      t.url,
      { email: person.email.toUpperCase(), password: person.password, csrf_token: form.csrf },
      form.cookie,
    );
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/account');
    const cookies = setCookies(res);
    expect(cookies.seo_session).toMatch(/HttpOnly/i);
    expect(cookies.seo_session).toMatch(/SameSite=Lax/i);
    expect(cookies.seo_session).toMatch(/Path=\/(;|$)/);
    expect(cookies.seo_session).not.toMatch(/Secure/i); // PUBLIC_BASE_URL is http here
    expect(cookies.seo_signin_csrf).toMatch(/Max-Age=0/); // the form's token is used up

    const page = await t.http().get('/account').set('Cookie', cookiePair(cookies.seo_session));
    expect(page.status).toBe(200);
    expect(page.text).toContain(person.email);

    // Signed in already: the sign-in page sends the person on.
    const again = await t
      .http()
      .get('/account/sign-in')
      .set('Cookie', cookiePair(cookies.seo_session));
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe('/account');
  });

  it('return_to: a path on this origin is followed and echoed in the form', async () => {
    const target = '/account?tab=keys#new';
    const form = await openSignIn(t.url, `?return_to=${encodeURIComponent(target)}`);
    expect(hiddenValue(form.res.text, 'return_to')).toBe('/account?tab=keys#new');
    const res = await postSignIn(
      t.url,
      { email: person.email, password: person.password, csrf_token: form.csrf, return_to: target },
      form.cookie,
    );
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(target);
  });

  it.each([
    '//evil.example',
    '//evil.example/account',
    'https://evil.example',
    'https://evil.example/account',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    'javascript:alert(1)',
    'evil.example',
    // Resolved, these become `//evil.example` (the check is on what would be returned).
    '/.//evil.example',
    '/..//evil.example',
    '/account/../..//evil.example',
    '/%2e%2e//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/account/%2e%2e/%2e%2e//evil.example',
    '',
  ])('return_to %j is ignored (303 to /account, not echoed)', async (returnTo) => {
    const form = await openSignIn(t.url, `?return_to=${encodeURIComponent(returnTo)}`);
    expect(hiddenValue(form.res.text, 'return_to')).toBeNull();
    expect(form.res.text).not.toContain('evil.example');
    const res = await postSignIn(
      t.url,
      {
        email: person.email,
        password: person.password,
        csrf_token: form.csrf,
        return_to: returnTo,
      },
      form.cookie,
    );
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/account');
  });

  it.each([
    '/.//evil.example',
    '/..//evil.example',
    '/account/../..//evil.example',
    '/%2e%2e//evil.example',
    '/%2e//evil.example',
    '/account/%2e%2e/%2e%2e//evil.example',
  ])(
    'signed in, GET sign-in with return_to %j (as typed and percent-encoded): 303 to /account',
    async (returnTo) => {
      const session = await pageSignIn(t.url, person);
      for (const query of [returnTo, encodeURIComponent(returnTo)]) {
        const res = await t
          .http()
          .get(`/account/sign-in?return_to=${query}`)
          .set('Cookie', session);
        expect(res.status).toBe(303);
        expect(res.headers.location).toBe('/account');
      }
    },
  );

  it('CSRF token missing, wrong, or without its cookie: 403 with the form again, nobody signed in', async () => {
    const form = await openSignIn(t.url);
    const fields = { email: person.email, password: person.password };
    for (const [body, cookie] of [
      [fields, form.cookie],
      [{ ...fields, csrf_token: 'x'.repeat(43) }, form.cookie],
      [{ ...fields, csrf_token: form.csrf }, undefined],
      [{ ...fields, csrf_token: '' }, 'seo_signin_csrf='],
    ] as Array<[Record<string, string>, string | undefined]>) {
      const res = await postSignIn(t.url, body, cookie);
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('<form method="post" action="/account/sign-in"');
      expect(res.text).toMatch(/role="alert"[^>]*>Your sign-in form expired/);
      expect(setCookies(res).seo_session).toBeUndefined();
      // A fresh token comes with the form.
      expect(hiddenValue(res.text, 'csrf_token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it('a cross-site POST is refused before anything happens (Origin / Sec-Fetch-Site)', async () => {
    const form = await openSignIn(t.url);
    const fields = { email: person.email, password: person.password, csrf_token: form.csrf };
    const crossOrigin = await postSignIn(t.url, fields, form.cookie).set(
      'Origin',
      'https://evil.example',
    );
    expect(crossOrigin.status).toBe(403);
    expect(setCookies(crossOrigin).seo_session).toBeUndefined();
    const crossSite = await postSignIn(t.url, fields, form.cookie).set(
      'Sec-Fetch-Site',
      'cross-site',
    );
    expect(crossSite.status).toBe(403);
    expect(setCookies(crossSite).seo_session).toBeUndefined();
    const sameOrigin = await postSignIn(t.url, fields, form.cookie).set('Origin', t.url);
    expect(sameOrigin.status).toBe(303);
  });

  it('wrong password: 401 with the form and a clear message; the email is kept, the password never echoed', async () => {
    const form = await openSignIn(t.url, '?return_to=%2Faccount%3Fx%3D1');
    const wrong = 'wrong-password-Zq81';
    const res = await postSignIn(
      t.url,
      { email: person.email, password: wrong, csrf_token: form.csrf, return_to: '/account?x=1' },
      form.cookie,
    );
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/role="alert"[^>]*>Invalid email or password\.</);
    expect(res.text).toContain(`value="${person.email}"`);
    expect(res.text).not.toContain(wrong);
    expect(hiddenValue(res.text, 'return_to')).toBe('/account?x=1');
    expect(setCookies(res).seo_session).toBeUndefined();

    // Unknown email: the same answer.
    const unknown = await postSignIn(
      t.url,
      { email: 'nobody-here@example.com', password: wrong, csrf_token: form.csrf },
      form.cookie,
    );
    expect(unknown.status).toBe(401);
    expect(unknown.text).toMatch(/Invalid email or password\./);

    // Nothing typed.
    const empty = await postSignIn(
      t.url,
      { email: '', password: '', csrf_token: form.csrf },
      form.cookie,
    );
    expect(empty.status).toBe(401);
    expect(empty.text).toMatch(/Enter your email and your password\./);
  });

  it('what was typed is escaped when the form comes back', async () => {
    const form = await openSignIn(t.url);
    const typed = '"><script>alert(1)</script>@example.com';
    const res = await postSignIn(
      t.url,
      { email: typed, password: 'whatever-password', csrf_token: form.csrf },
      form.cookie,
    );
    expect(res.status).toBe(401);
    expect(res.text).not.toContain('<script>alert(1)</script>');
    expect(res.text).toContain(
      'value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@example.com"',
    );
  });

  it('throttled: attempts 1-10 answer 401, the 11th 429 with Retry-After, even with the right password', async () => {
    const victim = await createPerson(t.url, 'pro');
    const form = await openSignIn(t.url);
    for (let i = 1; i <= 10; i++) {
      const res = await postSignIn(
        t.url,
        { email: victim.email, password: `wrong-password-${i}`, csrf_token: form.csrf },
        form.cookie,
      );
      expect(res.status).toBe(401);
    }
    const res = await postSignIn(
      t.url,
      { email: victim.email, password: victim.password, csrf_token: form.csrf },
      form.cookie,
    );
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<form method="post" action="/account/sign-in"');
    expect(res.text).toMatch(
      /role="alert"[^>]*>Too many failed sign-in attempts\. Try again in \d+ minutes?\./,
    );
    expect(res.text).toContain(`value="${victim.email}"`);
    expect(setCookies(res).seo_session).toBeUndefined();
  });

  it('a form body over 16 KB is refused', async () => {
    const form = await openSignIn(t.url);
    const res = await postSignIn(
      t.url,
      { email: 'a@example.com', password: 'p'.repeat(20_000), csrf_token: form.csrf },
      form.cookie,
    );
    expect(res.status).toBe(413);
  });

  it('pageSignIn helper works end to end', async () => {
    const session = await pageSignIn(t.url, person);
    expect(session).toMatch(/^seo_session=/);
  });
});
