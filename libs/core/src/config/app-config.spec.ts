import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the documented defaults (docs/configuration.md)', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/seo_api');
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(c.redisPrefix).toBe('seo');
    expect(c.publicBaseUrl).toBe('http://localhost:3000');
    expect(c.adminToken).toBeUndefined();
    expect(c.provider).toBe('sandbox');
    expect(c.auditAllowPrivateNetworks).toBe(false);
    expect(c.logLevel).toBe('info');
  });

  it('chooses dataforseo when credentials are set', () => {
    const c = loadConfig({ DATAFORSEO_LOGIN: 'l', DATAFORSEO_PASSWORD: 'p' });
    expect(c.provider).toBe('dataforseo');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'not a url'],
    ['REDIS_PREFIX', 'has space'],
    ['PUBLIC_BASE_URL', 'ftp://x'],
    ['ADMIN_TOKEN', 'short'],
    ['SEO_DATA_PROVIDER', 'other'],
    ['AUDIT_ALLOW_PRIVATE_NETWORKS', 'maybe'],
    ['LOG_LEVEL', 'loud'],
  ])('rejects %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      expect((e as Error).message).toContain(name);
    }
  });

  it('requires credentials for the dataforseo provider', () => {
    expect(() => loadConfig({ SEO_DATA_PROVIDER: 'dataforseo' })).toThrow(/DATAFORSEO_LOGIN/);
  });

  it('TRUST_PROXY: off by default; hop counts, addresses, CIDR ranges and Express names; never true', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,::1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '::1',
    ]);
    for (const bad of ['true', '0', '11', 'everyone', '10.0.0.0/99', 'loopback,,', '1.2.3']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });
});

describe('Redis through Sentinel settings (issue 22)', () => {
  it('unset: REDIS_URL is used; set: the Sentinels and the master name (default seo)', () => {
    expect(loadConfig({}).redisSentinels).toBeNull();
    expect(loadConfig({ REDIS_SENTINELS: '' }).redisSentinels).toBeNull();
    expect(
      loadConfig({ REDIS_SENTINELS: '10.0.0.5:26379, s2.internal:26380,[::1]:26381' })
        .redisSentinels,
    ).toEqual({
      nodes: [
        { host: '10.0.0.5', port: 26379 },
        { host: 's2.internal', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      master: 'seo',
    });
    expect(
      loadConfig({ REDIS_SENTINELS: '127.0.0.1:26379', REDIS_SENTINEL_MASTER: 'main-1' })
        .redisSentinels?.master,
    ).toBe('main-1');
  });

  it.each([
    ['REDIS_SENTINELS', 'localhost'],
    ['REDIS_SENTINELS', '127.0.0.1:0'],
    ['REDIS_SENTINELS', '127.0.0.1:26379,'],
    ['REDIS_SENTINELS', 'redis://127.0.0.1:26379'],
    ['REDIS_SENTINEL_MASTER', 'bad name'],
  ])('refuses %s=%s naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
