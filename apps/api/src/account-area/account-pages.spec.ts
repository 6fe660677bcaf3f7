import { newCsrfToken, sessionCsrfToken, tokensMatch } from '../pages/csrf';
import { PageAssets } from '../pages/page-assets';
import { PageViews } from '../pages/page-views';
import { SIGN_IN_PAGE, safeReturnTo, signInPage } from './account-pages';

describe('account pages: helpers', () => {
  it.each([
    ['/account', '/account'],
    ['/account?tab=keys#new', '/account?tab=keys#new'],
    [
      '/oauth/authorize?client_id=a&redirect_uri=https%3A%2F%2Fx',
      '/oauth/authorize?client_id=a&redirect_uri=https%3A%2F%2Fx',
    ],
    ['/a/../account', '/account'],
  ])('safeReturnTo keeps the path %j', (given, expected) => {
    expect(safeReturnTo(given)).toBe(expected);
  });

  it.each([
    '//evil.example',
    '///evil.example',
    'https://evil.example',
    'http:/evil.example',
    '/\\evil.example',
    '\\/evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/ /evil',
    'javascript:alert(1)',
    'evil.example',
    // Paths that only become `//host` once resolved (dot segments, plain or percent-encoded).
    '/.//evil.example',
    '/..//evil.example',
    '/account/../..//evil.example',
    '/%2e%2e//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/.%2e//evil.example',
    '/account/%2e%2e/%2e%2e//evil.example',
    '/a/b/../../..//evil.example',
    '',
    undefined,
    ['/account'],
  ])('safeReturnTo refuses %j', (given) => {
    expect(safeReturnTo(given)).toBeNull();
  });

  it('safeReturnTo refuses an over-long path', () => {
    expect(safeReturnTo(`/${'a'.repeat(3000)}`)).toBeNull();
  });

  it('tokens: random, session-bound ones stable per session, compared in constant time', () => {
    const a = newCsrfToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newCsrfToken()).not.toBe(a);
    expect(sessionCsrfToken('s1')).toBe(sessionCsrfToken('s1'));
    expect(sessionCsrfToken('s1')).not.toBe(sessionCsrfToken('s2'));
    expect(sessionCsrfToken('s1')).not.toContain('s1');
    expect(tokensMatch(a, a)).toBe(true);
    expect(tokensMatch(`${a}x`, a)).toBe(false);
    expect(tokensMatch('', '')).toBe(false);
    expect(tokensMatch(undefined, a)).toBe(false);
    expect(tokensMatch(a, null)).toBe(false);
  });

  it('the sign-in form never carries a password value and escapes what it echoes', () => {
    const html = new PageViews(new PageAssets()).render(
      SIGN_IN_PAGE,
      signInPage({
        csrfToken: 'tok"en',
        email: '"><img src=x>',
        returnTo: '/account?a="b"',
        error: '<b>no</b>',
      }),
    );
    expect(html).not.toContain('<img src=x>');
    expect(html).not.toContain('<b>no</b>');
    expect(html).toContain('value="tok&quot;en"');
    expect(html).toContain('value="/account?a&#x3D;&quot;b&quot;"');
    expect(html).not.toMatch(/type="password"[^>]*value=/);
  });

  it('signing in to connect an app names the app (escaped), or "an app" when it is not known', () => {
    const views = new PageViews(new PageAssets());
    const render = (connectingApp: Parameters<typeof signInPage>[0]['connectingApp']) =>
      views.render(SIGN_IN_PAGE, signInPage({ csrfToken: 't', connectingApp }));

    const named = signInPage({
      csrfToken: 't',
      connectingApp: { name: 'Cursor', identityUrl: null },
    });
    expect(named.title).toBe('Sign in to connect Cursor');
    expect(named.heading).toBe('Sign in to connect Cursor');
    const hostile = render({ name: '<img src=x onerror=alert(1)>', identityUrl: null });
    expect(hostile).toContain(
      '<h1>Sign in to connect &lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;</h1>',
    );
    expect(hostile).not.toContain('<img src=x');
    expect(hostile).toContain('gave this name itself');

    const byUrl = render({ name: 'Assistant', identityUrl: 'https://app.example/oauth.json' });
    expect(byUrl).toContain('<code>https://app.example/oauth.json</code>');

    const unknown = render({ name: null, identityUrl: null });
    expect(unknown).toContain('<h1>Sign in to connect an app</h1>');
    expect(unknown).toContain('An app is asking to connect');
    expect(unknown).not.toContain('gave this name itself');

    const plain = render(null);
    expect(plain).toContain('<h1>Sign in to your account</h1>');
    expect(plain).not.toContain('asking to connect');
    expect(signInPage({ csrfToken: 't' }).title).toBe('Sign in');
  });
});
