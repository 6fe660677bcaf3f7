import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  assertPublicHost,
  buildAddressPolicy,
  canonicalHostname,
  createGuardedLookup,
  isPublicAddress,
} from './address-guard';
import { CrawlError } from './crawl-error';

async function codeOf(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (e) {
    return e instanceof CrawlError ? e.code : `non-crawl-error: ${String(e)}`;
  }
}

describe('isPublicAddress (SSRF guard: only global unicast is public)', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '240.0.0.1',
    '192.0.2.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '192.0.0.8',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    'fec0::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '::ffff:192.168.0.1',
    '::7f00:1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    '2001::1',
    '2001:db8::1',
    'not-an-ip',
    '',
    '127.1',
    '2130706433',
    '0177.0.0.1',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '[2606:4700::1]',
  ])('allows public %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('canonicalHostname (WHATWG URL normalisation of IP spellings)', () => {
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['[::1]', '::1'],
    ['::ffff:7f00:1', '::ffff:7f00:1'],
    ['EXAMPLE.com', 'example.com'],
  ])('%s → %s', (input, out) => {
    expect(canonicalHostname(input)).toBe(out);
  });
});

describe('assertPublicHost', () => {
  it.each([
    '127.0.0.1',
    '2130706433',
    '0177.0.0.1',
    '0x7f.1',
    '[::1]',
    '::1',
    '169.254.169.254',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '10.1.2.3',
    'fd00::1',
    'localhost',
  ])('refuses %s with PRIVATE_ADDRESS when private networks are not allowed', async (host) => {
    expect(await codeOf(assertPublicHost(host, false))).toBe('PRIVATE_ADDRESS');
  });

  it('accepts the same hosts when private networks are allowed', async () => {
    expect(await codeOf(assertPublicHost('127.0.0.1', true))).toBeNull();
    expect(await codeOf(assertPublicHost('localhost', true))).toBeNull();
  });

  it('accepts a public IP literal', async () => {
    expect(await codeOf(assertPublicHost('8.8.8.8', false))).toBeNull();
  });

  it('reports a name that does not resolve as UNREACHABLE (.invalid never resolves, RFC 6761)', async () => {
    expect(await codeOf(assertPublicHost('no-such-host.invalid', false))).toBe('UNREACHABLE');
  });

  it('reports garbage as INVALID_URL', async () => {
    expect(await codeOf(assertPublicHost('exa mple.com', false))).toBe('INVALID_URL');
    expect(await codeOf(assertPublicHost('', false))).toBe('INVALID_URL');
  });
});

describe('createGuardedLookup (connect-time check defeats DNS rebinding)', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  function get(policyAllowPrivate: boolean): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: 'localhost',
          port,
          path: '/',
          lookup: createGuardedLookup(buildAddressPolicy(policyAllowPrivate)),
          agent: false,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(String(res.statusCode)));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('refuses to connect when the name resolves to loopback', async () => {
    await expect(get(false)).rejects.toMatchObject({ code: 'PRIVATE_ADDRESS' });
  });

  it('connects when private networks are allowed', async () => {
    await expect(get(true)).resolves.toBe('200');
  });

  it('the test hook can allow exactly one address while the rest stays refused', () => {
    const policy = buildAddressPolicy(false, (ip) => ip === '127.0.0.1');
    expect(policy('127.0.0.1', 'x')).toBe(true);
    expect(policy('127.0.0.2', 'x')).toBe(false);
    expect(policy('10.0.0.1', 'x')).toBe(false);
    expect(policy('8.8.8.8', 'x')).toBe(true);
  });
});
