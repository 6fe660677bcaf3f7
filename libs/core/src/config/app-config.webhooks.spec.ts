import { ConfigError, DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS, loadConfig } from './app-config';

describe('webhook configuration', () => {
  it('defaults: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; 10 s timeout', () => {
    const c = loadConfig({});
    expect(c.webhooks.retryScheduleMs).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(c.webhooks.retryScheduleMs).toBe(DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS);
    expect(c.webhooks.timeoutMs).toBe(10_000);
  });

  it('WEBHOOK_RETRY_SCHEDULE_MS takes comma-separated delays', () => {
    expect(
      loadConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '100, 200,300' }).webhooks.retryScheduleMs,
    ).toEqual([100, 200, 300]);
  });

  it.each(['abc', '100,,200', '0', '-5', '1.5', '86400001'])(
    'refuses WEBHOOK_RETRY_SCHEDULE_MS=%s with a message naming it',
    (value) => {
      expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_MS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_MS: value })).toThrow(
        /WEBHOOK_RETRY_SCHEDULE_MS/,
      );
    },
  );
});
