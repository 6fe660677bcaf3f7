import { normalizeDomain } from './normalize-domain';
import { needsCredit } from './backlinks.service';
import { PLANS } from '@app/plans';

describe('normalizeDomain (GET /backlinks domain rule)', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM  ', 'example.com'],
    ['www.example.com', 'example.com'],
    ['https://www.example.com/path?q=1#x', 'example.com'],
    ['http://blog.example.co.uk:8080/', 'blog.example.co.uk'],
    ['example.com.', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['https://WWW.Bücher.DE/x', 'xn--bcher-kva.de'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['例子.中国', 'xn--fsqu00a.xn--fiqs8s'],
    ['sub-domain.example.io', 'sub-domain.example.io'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeDomain(input)).toBe(expected);
  });

  it.each([
    '',
    '   ',
    'localhost',
    'foo.localhost',
    '127.0.0.1',
    '10.0.0.1',
    '0x7f.1',
    'http://[::1]/',
    '[::1]',
    'http://127.0.0.1:8080/',
    'a',
    'com',
    'www.com',
    'exa mple.com',
    'exa\tmple.com',
    'ftp://example.com',
    'javascript:alert(1)',
    'http://user:pw@example.com',
    '-bad.example.com',
    'bad-.example.com',
    'ex_ample.com',
    'example..com',
    'example.c',
    'example.123',
    `${'a'.repeat(64)}.com`,
    `${'abcdefghi.'.repeat(26)}com`,
    'x'.repeat(3000),
    '%%%',
    'example.com\\evil',
    'exa\u0000mple.com',
  ])('refuses %j', (input) => {
    expect(normalizeDomain(input)).toBeNull();
  });
});

describe('backlinks billing rules', () => {
  it('page > 1 or limit > 100 always needs a credit', () => {
    expect(needsCredit(1, 100)).toBe(false);
    expect(needsCredit(1, 1)).toBe(false);
    expect(needsCredit(2, 10)).toBe(true);
    expect(needsCredit(1, 101)).toBe(true);
  });

  it('cache TTL is a plan property: Pro 2 days, Agency 7 days', () => {
    expect(PLANS.pro.backlinksCacheTtlSeconds).toBe(2 * 86_400);
    expect(PLANS.agency.backlinksCacheTtlSeconds).toBe(7 * 86_400);
    expect('backlinksCacheTtlSeconds' in PLANS.pro.limits).toBe(false);
  });
});
