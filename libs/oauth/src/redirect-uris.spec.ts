import { isAcceptableRedirectUri, privateUseScheme, redirectUriMatches } from './redirect-uris';

describe('redirectUriMatches: exact, with only a loopback port free (issue 21)', () => {
  const loopback = 'http://127.0.0.1:9999/cb';
  const https = 'https://app.example/oauth/cb?x=1';

  it.each([
    [loopback, loopback],
    ['http://127.0.0.1:1234/cb', loopback],
    ['http://127.0.0.1/cb', loopback],
    ['http://127.0.0.1:65535/cb', loopback],
    ['http://[::1]:8080/cb', 'http://[::1]:9/cb'],
    ['http://localhost:3000/cb', 'http://localhost/cb'],
    ['http://127.0.0.1:5000', 'http://127.0.0.1:9999'],
    [https, https],
  ])('accepts %s for %s', (requested, registered) => {
    expect(redirectUriMatches(requested, registered)).toBe(true);
  });

  it.each([
    ['http://127.0.0.1:9999/cb#frag', loopback],
    ['http://127.0.0.1:9999/cb#', loopback],
    ['http://evil@127.0.0.1:9999/cb', loopback],
    ['http://user:pass@127.0.0.1:9999/cb', loopback],
    ['http://127.0.0.1:9999/cb/', loopback],
    ['http://127.0.0.1:9999/CB', loopback],
    ['http://127.0.0.1:9999/cb?x=1', loopback],
    ['http://127.0.0.1:9999/%63b', loopback],
    ['http://127.0.0.1:9999/./cb', loopback],
    ['HTTP://127.0.0.1:9999/cb', loopback],
    ['http://127.0.0.2:9999/cb', loopback],
    ['http://localhost:9999/cb', loopback],
    ['http://127.0.0.1:99999/cb', loopback],
    ['http://127.0.0.1:0/cb', loopback],
    ['https://127.0.0.1:9999/cb', loopback],
    ['https://app.example:444/oauth/cb?x=1', https],
    ['https://app.example/oauth/cb?x=1&y=2', https],
    ['https://app.example/oauth/cb?x=1#f', https],
    ['https://APP.example/oauth/cb?x=1', https],
    ['https://evil@app.example/oauth/cb?x=1', https],
    ['https://app.example.evil.example/oauth/cb?x=1', https],
    [undefined, loopback],
    [['http://127.0.0.1:9999/cb'], loopback],
  ])('refuses %j for %s', (requested, registered) => {
    expect(redirectUriMatches(requested, registered)).toBe(false);
  });
});

describe('isAcceptableRedirectUri: https, loopback http, native private-use schemes (issue 36)', () => {
  it.each([
    'https://app.example.com/cb',
    'https://app.example.com/cb?x=1',
    'http://localhost:1234/cb',
    'http://127.0.0.1/cb',
    'http://[::1]:8080/cb',
    // RFC 8252 §7.1: reverse-domain schemes (with a period), any of the URI forms.
    'com.example.app:/cb',
    'com.example.app:/oauth2redirect/example-provider',
    'com.example.app://callback',
    'com.example.app:cb',
    'io.github.some-user.tool:/cb?x=1',
    'net.3m.app:/cb',
    // The known dotless schemes of MCP clients.
    'cursor://callback',
    'cursor://anysphere.cursor-retrieval/oauth/callback',
    'vscode://x/cb',
    'vscode-insiders://x/cb',
    'windsurf://codeium.windsurf/cb',
  ])('accepts %s', (uri) => {
    expect(isAcceptableRedirectUri(uri)).toBe(true);
  });

  it.each([
    // Schemes with a meaning in browsers or the OS, however written.
    'javascript:alert(1)',
    'javascript://%0aalert(1)',
    'JAVASCRIPT:alert(1)',
    'JavaScript://x/%0aalert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:,x',
    'file:///etc/passwd',
    'file://localhost/etc/passwd',
    'vbscript:msgbox(1)',
    'about:blank',
    'blob:https://app.example.com/0f1e2d3c',
    'filesystem:https://app.example.com/temporary/x',
    'view-source:https://app.example.com/',
    'mailto:a@example.com',
    'tel:+15550100',
    'sms:+15550100',
    'ftp://app.example.com/cb',
    'ws://127.0.0.1/cb',
    'wss://app.example.com/cb',
    'intent://cb#Intent;scheme=x;end',
    'chrome://settings',
    'chrome-extension://abcdefghijklmnop/cb',
    'ms-settings:privacy',
    // Dotless schemes that are not known, and malformed reverse-domain ones.
    'myapp://cb',
    'claude-desktop://cb',
    'web+app:/cb',
    'com.example.:/cb',
    '.com.example:/cb',
    'com..example:/cb',
    'com.example-:/cb',
    'com.example.app+x:/cb',
    '1com.example:/cb',
    // Uppercase variants (matched exactly later, so one spelling only).
    'Cursor://callback',
    'CURSOR://callback',
    'COM.EXAMPLE.APP:/cb',
    'Com.Example.App:/cb',
    'HTTPS://app.example.com/cb',
    'Http://127.0.0.1/cb',
    // Fragments, credentials, nothing after the scheme.
    'https://app.example.com/cb#frag',
    'https://app.example.com/cb#',
    'cursor://callback#x',
    'com.example.app:/cb#',
    'https://user:pw@app.example.com/cb',
    'cursor://evil@callback',
    'com.example.app://user:pw@cb',
    'cursor:',
    'com.example.app:',
    // Plain http elsewhere than loopback.
    'http://app.example.com/cb',
    'http://localhost.evil.example/cb',
    // Whitespace, control and invisible characters (the URL parser drops some silently).
    'cursor://call back',
    'cursor://callback ',
    '\tcursor://callback',
    'cursor://call\nback',
    'cursor://call\rback',
    'cursor://call\u0000back',
    'cursor://call\u007fback',
    'https://app.example.com/c\nb',
    'cursor://callback\u202e',
    'cursor://call\u200bback',
    'com.example.app:/cb\u00a0',
    'https://app.example.com/ü',
    // Not strings, empty, too long.
    '',
    `https://app.example.com/${'x'.repeat(600)}`,
    `cursor://${'x'.repeat(600)}`,
    undefined,
    null,
    42,
    ['cursor://callback'],
    { href: 'cursor://callback' },
  ])('refuses %j', (uri) => {
    expect(isAcceptableRedirectUri(uri)).toBe(false);
  });

  it('names the private-use scheme of accepted native URIs, none for http(s)', () => {
    expect(privateUseScheme('cursor://callback')).toBe('cursor');
    expect(privateUseScheme('com.example.app:/cb')).toBe('com.example.app');
    expect(privateUseScheme('https://app.example.com/cb')).toBeNull();
    expect(privateUseScheme('http://127.0.0.1/cb')).toBeNull();
    expect(privateUseScheme('javascript:alert(1)')).toBeNull();
    expect(privateUseScheme('no-colon')).toBeNull();
  });

  it('a private-use redirect URI is matched exactly (no port or case relaxation)', () => {
    const registered = 'cursor://callback';
    expect(redirectUriMatches('cursor://callback', registered)).toBe(true);
    for (const other of [
      'cursor://callback/',
      'cursor://Callback',
      'CURSOR://callback',
      'cursor://callback:80',
      'cursor://callback?x=1',
      'cursor://callback#x',
      'cursor://evil@callback',
      'cursor:/callback',
    ]) {
      expect(redirectUriMatches(other, registered)).toBe(false);
    }
    expect(redirectUriMatches('com.example.app:/cb', 'com.example.app:/cb')).toBe(true);
    expect(redirectUriMatches('com.example.app:/cb/', 'com.example.app:/cb')).toBe(false);
  });
});
