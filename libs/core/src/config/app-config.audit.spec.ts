import { loadConfig } from './app-config';

describe('site-audit configuration', () => {
  it('has sane defaults', () => {
    const c = loadConfig({});
    expect(c.audit).toEqual({
      userAgent: 'SeoApiAuditBot/1.0',
      crawlTimeLimitSeconds: 240,
      jobDeadlineSeconds: 1800,
      stalledIntervalMs: 30_000,
      maxStalledCount: 1,
      politenessDelayMs: 250,
      sweepIntervalMs: 60_000,
    });
    expect(c.workerConcurrency).toBe(2);
  });

  it('reads the variables', () => {
    const c = loadConfig({
      AUDIT_USER_AGENT: 'MyBot/2.0 (+https://example.com/bot)',
      AUDIT_CRAWL_TIME_LIMIT_SECONDS: '60',
      AUDIT_JOB_DEADLINE_SECONDS: '600',
      WORKER_CONCURRENCY: '4',
      AUDIT_STALLED_INTERVAL_MS: '1000',
      AUDIT_MAX_STALLED_COUNT: '2',
      AUDIT_POLITENESS_DELAY_MS: '0',
      AUDIT_SWEEP_INTERVAL_MS: '5000',
    });
    expect(c.audit.userAgent).toBe('MyBot/2.0 (+https://example.com/bot)');
    expect(c.audit.crawlTimeLimitSeconds).toBe(60);
    expect(c.audit.jobDeadlineSeconds).toBe(600);
    expect(c.workerConcurrency).toBe(4);
    expect(c.audit.maxStalledCount).toBe(2);
    expect(c.audit.politenessDelayMs).toBe(0);
  });

  it.each([
    ['WORKER_CONCURRENCY', '0'],
    ['AUDIT_STALLED_INTERVAL_MS', '10'],
    ['AUDIT_CRAWL_TIME_LIMIT_SECONDS', 'soon'],
    ['AUDIT_USER_AGENT', 'bad\nagent'],
  ])('rejects %s=%j naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('the job deadline must leave room for the crawl time limit', () => {
    expect(() =>
      loadConfig({ AUDIT_CRAWL_TIME_LIMIT_SECONDS: '600', AUDIT_JOB_DEADLINE_SECONDS: '600' }),
    ).toThrow('AUDIT_JOB_DEADLINE_SECONDS');
  });
});
