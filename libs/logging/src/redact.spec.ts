import { redactUrl } from './logger';

describe('redactUrl (api_key query values never reach logs)', () => {
  it.each([
    ['/api/v1/usage?api_key=seo_live_secret', '/api/v1/usage?api_key=[REDACTED]'],
    [
      '/api/v1/backlinks?domain=x.com&api_key=seo_live_secret&page=2',
      '/api/v1/backlinks?domain=x.com&api_key=[REDACTED]&page=2',
    ],
    ['/api/v1/usage?API_KEY=abc', '/api/v1/usage?API_KEY=[REDACTED]'],
    ['/api/v1/usage', '/api/v1/usage'],
  ])('%s', (input, expected) => {
    expect(redactUrl(input)).toBe(expected);
  });
});
