import { ConfigError, DEFAULT_BASE_URL, loadMcpConfig, parseBaseUrl } from './config';

describe('MCP connector configuration (SEO_API_KEY required, SEO_API_BASE_URL validated)', () => {
  it('a missing or blank SEO_API_KEY is a ConfigError naming the variable', () => {
    for (const env of [{}, { SEO_API_KEY: '' }, { SEO_API_KEY: '   ' }]) {
      expect(() => loadMcpConfig(env)).toThrow(ConfigError);
      expect(() => loadMcpConfig(env)).toThrow(/SEO_API_KEY/);
    }
  });

  it('defaults: base URL http://localhost:3000, 15 s poll interval, 50 s max wait, 10 s progress, 60 s request timeout', () => {
    expect(loadMcpConfig({ SEO_API_KEY: 'k' })).toEqual({
      apiKey: 'k',
      baseUrl: DEFAULT_BASE_URL,
      requestTimeoutMs: 60_000,
      pollIntervalMs: 15_000,
      maxWaitMs: 50_000,
      progressIntervalMs: 10_000,
    });
  });

  it('base URL: trailing slashes dropped, path prefix kept; non-http, credentials, query and junk refused', () => {
    expect(parseBaseUrl('https://api.example.com/')).toBe('https://api.example.com');
    expect(parseBaseUrl('https://example.com/seo//')).toBe('https://example.com/seo');
    expect(parseBaseUrl(' http://127.0.0.1:3000 ')).toBe('http://127.0.0.1:3000');
    expect(parseBaseUrl('https://api.example.com/api/v1/')).toBe('https://api.example.com');
    for (const bad of [
      'example.com',
      'ftp://example.com',
      'http://u:p@example.com',
      'http://x.com/?a=1',
      'http://x.com/#f',
      'javascript:alert(1)',
    ]) {
      expect(() => parseBaseUrl(bad)).toThrow(/SEO_API_BASE_URL/);
    }
  });

  it('errors never echo the key', () => {
    try {
      loadMcpConfig({ SEO_API_KEY: 'sk_live_secret', SEO_API_BASE_URL: 'nope' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as Error).message).not.toContain('sk_live_secret');
    }
  });

  it('timing variables must be whole milliseconds within bounds', () => {
    expect(
      loadMcpConfig({
        SEO_API_KEY: 'k',
        SEO_MCP_POLL_INTERVAL_MS: '200',
        SEO_MCP_MAX_WAIT_MS: '0',
        SEO_MCP_PROGRESS_INTERVAL_MS: '1000',
      }),
    ).toMatchObject({
      pollIntervalMs: 200,
      maxWaitMs: 0,
      progressIntervalMs: 1000,
    });
    for (const [name, value] of [
      ['SEO_MCP_POLL_INTERVAL_MS', '1.5'],
      ['SEO_MCP_POLL_INTERVAL_MS', '50'],
      ['SEO_MCP_MAX_WAIT_MS', '-1'],
      ['SEO_API_TIMEOUT_MS', 'abc'],
      ['SEO_MCP_PROGRESS_INTERVAL_MS', '99'],
      ['SEO_MCP_PROGRESS_INTERVAL_MS', '60000'],
      ['SEO_MCP_PROGRESS_INTERVAL_MS', 'abc'],
    ]) {
      expect(() => loadMcpConfig({ SEO_API_KEY: 'k', [name]: value })).toThrow(name);
    }
  });
});
