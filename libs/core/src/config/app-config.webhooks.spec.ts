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

describe('secrets-at-rest configuration (issue 21)', () => {
  const key = Buffer.alloc(32, 7);

  it('no key by default; base64 and hex keys; old keys as a comma-separated list', () => {
    expect(loadConfig({}).secretsEncryption).toEqual({ current: null, old: [] });
    expect(loadConfig({ SECRETS_ENCRYPTION_KEY: '' }).secretsEncryption.current).toBeNull();
    const c = loadConfig({
      SECRETS_ENCRYPTION_KEY: key.toString('base64'),
      SECRETS_ENCRYPTION_KEYS_OLD: ` ${Buffer.alloc(32, 1).toString('hex')} ,${Buffer.alloc(32, 2).toString('base64')}`,
    });
    expect(c.secretsEncryption.current).toEqual(key);
    expect(c.secretsEncryption.old).toEqual([Buffer.alloc(32, 1), Buffer.alloc(32, 2)]);
  });

  it.each([
    ['SECRETS_ENCRYPTION_KEY', 'short'],
    ['SECRETS_ENCRYPTION_KEY', Buffer.alloc(16).toString('base64')],
    ['SECRETS_ENCRYPTION_KEYS_OLD', `${key.toString('base64')},nope`],
  ])('refuses %s=%s naming the variable, without echoing the value', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      expect((err as Error).message).not.toContain(value);
    }
  });
});
