import { domainToASCII } from 'node:url';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const MAX_INPUT = 2048;

/**
 * The root domain GET /backlinks works on, or null when the input is not a registrable-
 * looking host name. A full URL gives its host; lower case; a trailing dot and one leading
 * "www." are dropped; IDNs become punycode. IP addresses, localhost, single labels,
 * user-info, whitespace and over-long names are refused.
 */
export function normalizeDomain(input: string): string | null {
  const raw = input.trim();
  if (!raw || raw.length > MAX_INPUT || /[\s\\]/.test(raw)) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw);
  let url: URL;
  try {
    url = new URL(hasScheme ? raw : `http://${raw}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  let host = url.hostname;
  if (!host || host.startsWith('[')) return null; // IPv6 literal
  host = domainToASCII(host).toLowerCase();
  if (!host) return null;
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.startsWith('www.')) host = host.slice(4);
  if (host.length > 253) return null;
  const labels = host.split('.');
  if (labels.length < 2) return null;
  if (!labels.every((l) => LABEL.test(l))) return null;
  if (!TLD.test(labels[labels.length - 1])) return null; // also refuses IPv4 (numeric last label)
  if (host === 'localhost' || host.endsWith('.localhost')) return null;
  return host;
}
