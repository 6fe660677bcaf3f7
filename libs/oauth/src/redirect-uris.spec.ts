import { redirectUriMatches } from './redirect-uris';

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
