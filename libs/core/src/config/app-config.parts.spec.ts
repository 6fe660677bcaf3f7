import { ConfigError, loadConfig } from './app-config';

/** The parts no other spec covers: their defaults, the values they map, one refusal each. */
describe('loadConfig parts', () => {
  it('access: the admin token, the throttle windows and the key cache', () => {
    const c = loadConfig({});
    expect([c.rateLimitWindowSeconds, c.signInWindowSeconds, c.adminAuthWindowSeconds]).toEqual([
      60, 900, 60,
    ]);
    expect(c.keyCacheTtlMs).toBe(5000);
    const set = loadConfig({ SIGN_IN_WINDOW_SECONDS: '60', KEY_CACHE_TTL_MS: '0' });
    expect([set.signInWindowSeconds, set.keyCacheTtlMs]).toEqual([60, 0]);
    expect(() => loadConfig({ KEY_CACHE_TTL_MS: '5001' })).toThrow(
      'KEY_CACHE_TTL_MS: must be an integer from 0 to 5000',
    );
  });

  it('database: the read standby only with DATABASE_READ_URL, the pool size', () => {
    expect(loadConfig({}).databaseRead).toBeNull();
    expect(loadConfig({}).dbPoolSize).toBe(10);
    expect(
      loadConfig({ DATABASE_READ_URL: 'postgres://r@h:5432/db/', DATABASE_READ_MAX_LAG_MS: '0' })
        .databaseRead,
    ).toEqual({ url: 'postgres://r@h:5432/db', maxLagMs: 0 });
    expect(loadConfig({ DATABASE_READ_URL: 'postgres://r@h/db' }).databaseRead?.maxLagMs).toBe(
      5000,
    );
    expect(() => loadConfig({ DATABASE_READ_URL: 'redis://x' })).toThrow(
      'DATABASE_READ_URL: must be a URL starting with postgres:// or postgresql://',
    );
  });

  it('provider: backoff and keyword cache defaults and bounds', () => {
    const c = loadConfig({});
    expect([c.dataforseo.backoffMs, c.keywordCacheTtlSeconds]).toEqual([500, 604_800]);
    expect(() => loadConfig({ DATAFORSEO_BACKOFF_MS: '60001' })).toThrow(/DATAFORSEO_BACKOFF_MS/);
  });

  it('google: Google’s documented endpoints by default, no client without an id, a secret with one', () => {
    const c = loadConfig({});
    expect(c.google).toEqual({
      clientId: undefined,
      clientSecret: undefined,
      authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      revokeUrl: 'https://oauth2.googleapis.com/revoke',
      userinfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
      searchConsoleUrl: 'https://www.googleapis.com/webmasters/v3',
      timeoutMs: 30_000,
    });
    const set = loadConfig({
      GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'secret',
      GOOGLE_SEARCH_CONSOLE_URL: 'http://127.0.0.1:9/webmasters/v3/',
    });
    expect([set.google.clientId, set.google.searchConsoleUrl]).toEqual([
      'id.apps.googleusercontent.com',
      'http://127.0.0.1:9/webmasters/v3',
    ]);
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'id' })).toThrow(
      'GOOGLE_CLIENT_SECRET: GOOGLE_CLIENT_ID needs GOOGLE_CLIENT_SECRET',
    );
    expect(() => loadConfig({ GOOGLE_OAUTH_TOKEN_URL: 'ftp://x' })).toThrow(
      /GOOGLE_OAUTH_TOKEN_URL/,
    );
  });

  it('operations: production, log format, metrics token and port, dashboard mode', () => {
    const c = loadConfig({});
    expect(c.production).toBe(false);
    expect(c.logFormat).toBe('json');
    expect(c.metricsToken).toBeUndefined();
    expect(c.workerMetricsPort).toBe(0);
    expect(c.queueDashboardReadOnly).toBe(true);
    const set = loadConfig({
      NODE_ENV: 'production',
      LOG_FORMAT: ' Pretty ',
      METRICS_TOKEN: 'm'.repeat(16),
      WORKER_METRICS_PORT: '9464',
      QUEUE_DASHBOARD_READ_ONLY: 'no',
    });
    expect(set.production).toBe(true);
    expect(set.logFormat).toBe('pretty');
    expect(set.metricsToken).toBe('m'.repeat(16));
    expect(set.workerMetricsPort).toBe(9464);
    expect(set.queueDashboardReadOnly).toBe(false);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
      'METRICS_TOKEN: must be at least 16 characters',
    );
    expect(() => loadConfig({ QUEUE_DASHBOARD_READ_ONLY: 'maybe' })).toThrow(
      'QUEUE_DASHBOARD_READ_ONLY must be true or false',
    );
  });

  it('site audit: the long-poll bounds', () => {
    expect(loadConfig({}).jobsWait).toEqual({ maxPerAccount: 10, maxTotal: 5000, recheckMs: 5000 });
    expect(() => loadConfig({ JOBS_WAIT_RECHECK_MS: '99' })).toThrow(/JOBS_WAIT_RECHECK_MS/);
  });

  it('your data: Search Console partitions and retention', () => {
    expect(loadConfig({}).gscMaintenance).toEqual({
      intervalMs: 21_600_000,
      retentionMonths: 16,
      partitionsAhead: 2,
    });
    expect(loadConfig({ GSC_RETENTION_MONTHS: '120' }).gscMaintenance.retentionMonths).toBe(120);
    expect(() => loadConfig({ GSC_RETENTION_MONTHS: '0' })).toThrow(
      'GSC_RETENTION_MONTHS: must be an integer from 1 to 120',
    );
  });

  it('OAuth: the registration limits', () => {
    expect(loadConfig({}).oauthRegistrations).toEqual({
      perAddress: 30,
      perHour: 1000,
      unusedTtlSeconds: 86_400,
    });
    expect(() => loadConfig({ OAUTH_UNUSED_CLIENT_TTL_SECONDS: '59' })).toThrow(
      /OAUTH_UNUSED_CLIENT_TTL_SECONDS/,
    );
  });

  it('names every invalid variable of every part in one ConfigError', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'x', REDIS_PREFIX: 'a b', LOG_LEVEL: 'loud', WEBHOOK_TIMEOUT_MS: '1' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect([...(error as ConfigError).problems].sort()).toEqual([
      'LOG_LEVEL: Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"',
      'PORT: must be an integer from 1 to 65535',
      'REDIS_PREFIX: must be 1-64 of A-Z a-z 0-9 _ . : -',
      'WEBHOOK_TIMEOUT_MS: must be an integer from 100 to 60000',
    ]);
  });
});
