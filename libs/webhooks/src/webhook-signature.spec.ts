import { newWebhookSecret, signWebhook } from './webhook-signature';
import { webhookAddressPolicy, webhookUrlProblem } from './webhook-url';

describe('webhook signature (Standard Webhooks)', () => {
  it('matches the published Standard Webhooks test vector', () => {
    expect(
      signWebhook(
        ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs with every secret given, space-separated, current first', () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    const both = signWebhook([a, b], 'msg_x', 1, '{}').split(' ');
    expect(both).toEqual([signWebhook([a], 'msg_x', 1, '{}'), signWebhook([b], 'msg_x', 1, '{}')]);
  });

  it('new secrets are whsec_ + base64 of 32 random bytes', () => {
    const s = newWebhookSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(s);
  });
});

describe('webhook URL rules', () => {
  it.each([
    ['https://example.com/hook', null],
    ['ftp://example.com/', 'webhook_url must start with https://'],
    ['https://u:p@example.com/', 'webhook_url must not contain a user name or password'],
    ['nope', expect.stringContaining('absolute URL')],
    [`https://example.com/${'a'.repeat(2048)}`, expect.stringContaining('2048')],
  ])('%s', (value, problem) => {
    expect(webhookUrlProblem(value)).toEqual(problem);
  });

  it('address policy: public only without private networks; with them http only to loopback', () => {
    const strict = webhookAddressPolicy('https:', false);
    expect(strict('93.184.215.14', 'h')).toBe(true);
    for (const ip of ['127.0.0.1', '10.0.0.1', '169.254.169.254', '::1', '::ffff:127.0.0.1'])
      expect(strict(ip, 'h')).toBe(false);
    const devHttp = webhookAddressPolicy('http:', true);
    expect(devHttp('127.0.0.1', 'h')).toBe(true);
    expect(devHttp('::1', 'h')).toBe(true);
    expect(devHttp('10.0.0.1', 'h')).toBe(false);
    expect(devHttp('93.184.215.14', 'h')).toBe(false);
    expect(webhookAddressPolicy('https:', true)('10.0.0.1', 'h')).toBe(true);
  });
});
