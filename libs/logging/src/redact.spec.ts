import { redactUrl } from './logger';

describe('redactUrl (api_key query values never reach logs)', () => {
  it.each([
    ['/api/v1/usage?api_key=seo_live_secret', '/api/v1/usage?api_key=[REDACTED]'],
    [
      '/api/v1/backlinks?domain=x.com&api_key=seo_live_secret&page=2',
      '/api/v1/backlinks?domain=x.com&api_key=[REDACTED]&page=2',
    ],
    ['/api/v1/usage?API_KEY=abc', '/api/v1/usage?API_KEY=[REDACTED]'],
    ['/api/v1/usage?Api_Key=abc', '/api/v1/usage?Api_Key=[REDACTED]'],
    ['/api/v1/usage', '/api/v1/usage'],
    ['/api/v1/usage?api%5Fkey=seo_live_secret', '/api/v1/usage?api%5Fkey=[REDACTED]'],
    ['/api/v1/usage?api%5fKEY=seo_live_secret', '/api/v1/usage?api%5fKEY=[REDACTED]'],
    ['/api/v1/usage?%61pi_key=seo_live_secret', '/api/v1/usage?%61pi_key=[REDACTED]'],
    ['/api/v1/usage?api%255Fkey=seo_live_secret', '/api/v1/usage?api%255Fkey=[REDACTED]'],
    ['/api/v1/usage?api_key[]=seo_live_secret', '/api/v1/usage?api_key[]=[REDACTED]'],
    ['/api/v1/usage?api_key%5B%5D=seo_live_secret', '/api/v1/usage?api_key%5B%5D=[REDACTED]'],
    ['/api/v1/usage?api_key[0]=seo_live_secret', '/api/v1/usage?api_key[0]=[REDACTED]'],
    ['/api/v1/usage?x=1;api_key=seo_live_secret', '/api/v1/usage?x=1;api_key=[REDACTED]'],
    ['/api/v1/usage;api_key=seo_live_secret', '/api/v1/usage;api_key=[REDACTED]'],
    ['/api/v1/usage#api_key=seo_live_secret', '/api/v1/usage#api_key=[REDACTED]'],
    ['/api/v1/usage?x=1#api_key=seo_live_secret', '/api/v1/usage?x=1#api_key=[REDACTED]'],
    ['/api/v1/usage?x=1?api_key=seo_live_secret', '/api/v1/usage?x=1?api_key=[REDACTED]'],
    ['/api/v1/usage?api+key=seo_live_secret', '/api/v1/usage?api+key=seo_live_secret'],
    ['/api/v1/usage?%20api_key=seo_live_secret', '/api/v1/usage?%20api_key=[REDACTED]'],
    ['/api/v1/usage?api_key=a?b&page=2', '/api/v1/usage?api_key=[REDACTED]&page=2'],
    ['/api/v1/usage?api_key=a&api_key=b', '/api/v1/usage?api_key=[REDACTED]&api_key=[REDACTED]'],
    ['/api/v1/usage?token=t0k3n&domain=a.com', '/api/v1/usage?token=[REDACTED]&domain=a.com'],
    ['/api/v1/usage?%E0%A4%A=1&api_key=s', '/api/v1/usage?%E0%A4%A=1&api_key=[REDACTED]'],
  ])('%s', (input, expected) => {
    expect(redactUrl(input)).toBe(expected);
  });

  it('replaces any occurrence of a known secret (the key the guard extracted), raw or encoded', () => {
    const key = 'seo_live_abcdef123456';
    expect(redactUrl(`/api/v1/usage?weird%00name=${key}`, [key])).toBe(
      '/api/v1/usage?weird%00name=[REDACTED]',
    );
    expect(redactUrl(`/api/v1/x/${key}`, [key])).toBe('/api/v1/x/[REDACTED]');
    expect(redactUrl('/api/v1/usage', [null, undefined, ''])).toBe('/api/v1/usage');
  });
});
