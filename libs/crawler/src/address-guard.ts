import * as dns from 'node:dns';
import * as net from 'node:net';
import * as ipaddr from 'ipaddr.js';
import { CrawlError } from './crawl-error';

/**
 * SSRF guard. An address is public only when it is ordinary global unicast:
 * IPv4 outside 0/8, 10/8, 100.64/10, 127/8, 169.254/16, 172.16/12, 192.0.0/24, 192.0.2/24,
 * 192.88.99/24, 192.168/16, 198.18/15, 198.51.100/24, 203.0.113/24, 224/4, 240/4 (incl.
 * 255.255.255.255) and the AS112/AMT anycast blocks; IPv6 inside 2000::/3 and not in a special
 * block (documentation, Teredo, 6to4, NAT64, ORCHID, benchmarking, ...). IPv4-mapped IPv6
 * (::ffff:a.b.c.d, also written ::ffff:7f00:1) is judged as the embedded IPv4 address.
 * Anything that does not parse is not public.
 */
export function isPublicAddress(ip: string): boolean {
  let raw = String(ip ?? '').trim();
  if (raw.startsWith('[') && raw.endsWith(']')) raw = raw.slice(1, -1);
  // Only strict dotted-quad / IPv6 text is accepted here; odd spellings (0177.0.0.1) are
  // normalised by the URL parser before they reach this function (see assertPublicHost).
  if (net.isIP(raw.split('%')[0]) === 0) return false;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(raw);
  } catch {
    return false;
  }
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
    if (v6.range() !== 'unicast') return false;
    const first = v6.parts[0];
    return first >= 0x2000 && first <= 0x3fff; // global unicast 2000::/3 only
  }
  return addr.range() === 'unicast';
}

/** Decides whether connecting to `ip` (resolved for `hostname`) is allowed. */
export type AddressPolicy = (ip: string, hostname: string) => boolean;

/**
 * Builds the address policy of a crawl. `allowPrivate` switches the guard off (local fixtures,
 * AUDIT_ALLOW_PRIVATE_NETWORKS=true). `extraAllowed` is a test hook: it may additionally allow
 * specific non-public addresses (e.g. only 127.0.0.1 of a fixture server) while everything else
 * stays refused; production never sets it.
 */
export function buildAddressPolicy(
  allowPrivate: boolean,
  extraAllowed?: AddressPolicy,
): AddressPolicy {
  if (allowPrivate) return () => true;
  return (ip, hostname) =>
    isPublicAddress(ip) || (extraAllowed ? extraAllowed(ip, hostname) : false);
}

/** Strips IPv6 brackets and lets the WHATWG URL parser normalise IPv4 spellings. */
export function canonicalHostname(hostname: string): string {
  const h = String(hostname ?? '').trim();
  if (h === '') throw new CrawlError('INVALID_URL', 'empty hostname');
  let parsed: string;
  try {
    // Turns 2130706433, 0177.0.0.1, 0x7f.1, 127.1 into 127.0.0.1; lowercases; punycodes.
    parsed = new URL(`http://${h.includes(':') && !h.startsWith('[') ? `[${h}]` : h}/`).hostname;
  } catch {
    throw new CrawlError('INVALID_URL', `invalid hostname: ${h}`);
  }
  return parsed.startsWith('[') ? parsed.slice(1, -1) : parsed;
}

interface ResolvedAddress {
  address: string;
  family: number;
}

function lookupAll(hostname: string): Promise<ResolvedAddress[]> {
  return new Promise((resolve, reject) => {
    dns.lookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err) reject(err);
      else resolve(addresses);
    });
  });
}

/** Resolves a hostname (or IP literal) and checks every address against the policy. */
export async function resolveAllowed(
  hostname: string,
  policy: AddressPolicy,
): Promise<ResolvedAddress[]> {
  const host = canonicalHostname(hostname);
  const family = net.isIP(host);
  let addresses: ResolvedAddress[];
  if (family !== 0) {
    addresses = [{ address: host, family }];
  } else {
    try {
      addresses = await lookupAll(host);
    } catch (err) {
      throw new CrawlError(
        'UNREACHABLE',
        `cannot resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      );
    }
    if (addresses.length === 0) throw new CrawlError('UNREACHABLE', `cannot resolve ${host}`);
  }
  const refused = addresses.find((a) => !policy(a.address, host));
  if (refused) {
    throw new CrawlError(
      'PRIVATE_ADDRESS',
      `${host} resolves to a non-public address (${refused.address})`,
    );
  }
  return addresses;
}

/**
 * Resolves all A/AAAA records of `hostname` and throws CrawlError('PRIVATE_ADDRESS') when any of
 * them is not public (unless allowPrivate), CrawlError('UNREACHABLE') when it does not resolve,
 * CrawlError('INVALID_URL') when it is not a hostname. IP literals in any spelling the URL parser
 * accepts (decimal 2130706433, octal 0177.0.0.1, hex 0x7f000001, [::1]) are checked directly.
 * This is a pre-check only: the crawler checks again at connect time (DNS rebinding).
 */
export async function assertPublicHost(hostname: string, allowPrivate: boolean): Promise<void> {
  await resolveAllowed(hostname, buildAddressPolicy(allowPrivate));
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request / net.connect that resolves the name and refuses the connection
 * when any resolved address is not allowed. The check happens at connect time on the very
 * addresses the socket will use, so DNS rebinding between a pre-check and the request is useless.
 * Supports both the single-address and the `all: true` (autoSelectFamily) call shapes.
 */
export function createGuardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    const family = typeof options === 'object' && options ? options.family : undefined;
    dns.lookup(
      hostname,
      { family: family as number | undefined, all: true, verbatim: true },
      (err, addresses) => {
        if (err) return callback(err, '');
        if (!addresses || addresses.length === 0) {
          const e: NodeJS.ErrnoException = new Error(`cannot resolve ${hostname}`);
          e.code = 'ENOTFOUND';
          return callback(e, '');
        }
        const refused = addresses.find((a) => !policy(a.address, hostname));
        if (refused) {
          const e = new CrawlError(
            'PRIVATE_ADDRESS',
            `${hostname} resolves to a non-public address (${refused.address})`,
          );
          return callback(e as unknown as NodeJS.ErrnoException, '');
        }
        if (options && options.all) return callback(null, addresses);
        return callback(null, addresses[0].address, addresses[0].family);
      },
    );
  };
}
