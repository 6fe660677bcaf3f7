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
    // `api+key` is not a secret name (a parser reads "api key"), but a key-shaped value is redacted anyway.
    ['/api/v1/usage?api+key=abcdef123456', '/api/v1/usage?api+key=abcdef123456'],
    ['/api/v1/usage?api+key=seo_live_secret', '/api/v1/usage?api+key=[REDACTED]'],
    ['/api/v1/usage?%20api_key=seo_live_secret', '/api/v1/usage?%20api_key=[REDACTED]'],
    ['/api/v1/usage?api_key=a?b&page=2', '/api/v1/usage?api_key=[REDACTED]&page=2'],
    ['/api/v1/usage?api_key=a&api_key=b', '/api/v1/usage?api_key=[REDACTED]&api_key=[REDACTED]'],
    ['/api/v1/usage?token=t0k3n&domain=a.com', '/api/v1/usage?token=[REDACTED]&domain=a.com'],
    ['/api/v1/usage?%E0%A4%A=1&api_key=s', '/api/v1/usage?%E0%A4%A=1&api_key=[REDACTED]'],
    [
      '/account/gsc/callback?state=s7a7e&code=4/0AeanS0abc&scope=openid',
      '/account/gsc/callback?state=[REDACTED]&code=[REDACTED]&scope=openid',
    ],
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

/** A key's shape (libs/accounts api-key-secret.ts) and an audit id's (libs/site-audit ids.ts). */
const KEY = `seo_live_${'Ab3_-'.repeat(8)}xyz`;
const AUDIT = 'aud_AbCd0123456789EFGHIJKL';

describe('redactUrl (key-shaped path segments and audit ids never reach logs or messages)', () => {
  const encodeAll = (s: string) =>
    [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  /** Every spelling a client or a router might send or decode. */
  const spellings = (value: string): string[] => [
    value,
    value.toUpperCase(),
    encodeURIComponent(value),
    value.replace(/_/g, '%5F'),
    value.replace(/_/g, '%5f'),
    value.replace(/_/g, '%255F'),
    encodeAll(value),
    encodeAll(value).replace(/%/g, '%25'),
    `x${value}.json`,
    `${value}%00`,
    `%E0%A4%A${value}`,
  ];
  const places = (part: string): string[] => [
    `/api/v1/usage/${part}`,
    `/api/v1/${part}`,
    `/${part}`,
    `/api/v1/usage/${part}/more?page=2`,
    `/api/v1/usage;${part}`,
    `/api/v1/backlinks?domain=${part}`,
    `/api/v1/backlinks?${part}`,
    `/api/v1/backlinks?x=1&${part}=1`,
    `/api/v1/backlinks#${part}`,
    `/mcp/${part}?access_token=x`,
  ];

  const keyCases = [KEY, 'seo_live_short', 'seo_test_anything', 'SEO_LIVE_'].flatMap(spellings);
  it.each(keyCases.flatMap(places).map((url) => [url]))('%s: no key-shaped part', (url) => {
    const out = redactUrl(url);
    expect(out).toContain('[REDACTED]');
    expect(decodeURIComponentSafe(out).toLowerCase()).not.toMatch(/seo_(live|test)_/);
    expect(out.toLowerCase()).not.toMatch(/seo(_|%5f|%255f)/);
  });

  // Audit ids are case-sensitive: an upper-cased one is no id.
  const auditCases = [AUDIT, `${AUDIT}x`].flatMap(spellings).filter((s) => s !== s.toUpperCase());
  it.each(
    auditCases
      .flatMap((part) => [
        `/reports/audits/${part}`,
        `/reports/audits/${part}/pages.json`,
        `/REPORTS/AUDITS/${part}/pages.csv`,
        `/reports//audits/${part}`,
        `/api/v1/jobs?audit=${part}`,
      ])
      .map((url) => [url]),
  )('%s: the audit id is cut to its first four characters', (url) => {
    const out = redactUrl(url);
    expect(out).not.toContain(AUDIT);
    expect(decodeURIComponentSafe(out)).not.toContain(AUDIT);
    expect(out).not.toContain('0123456789EFGH');
    expect(out).toContain('aud_AbCd[REDACTED]');
  });

  it.each([
    '/api/v1/usage',
    '/api/v1/backlinks?domain=seo.example&page=2',
    '/api/v1/keyword-research?keyword=running%20shoes',
    '/reports/audits/aud_short',
    '/reports/audits/not-an-id',
    '/api/v1/jobs/job_AbCd0123456789EFGHIJKL',
    '/audit/seo/live',
    '/api/v1/usage?x=%E0%A4%A',
  ])('%s: nothing else changes', (url) => {
    expect(redactUrl(url)).toBe(url);
  });
});

function decodeURIComponentSafe(s: string): string {
  let out = s;
  for (let i = 0; i < 3; i++) {
    try {
      out = decodeURIComponent(out);
    } catch {
      return out;
    }
  }
  return out;
}
