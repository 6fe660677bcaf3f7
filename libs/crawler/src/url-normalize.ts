/** Query parameters removed during normalisation (tracking and session ids). */
const STRIP_PARAMS = new Set([
  'gclid',
  'dclid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'ref_src',
  'jsessionid',
  'phpsessid',
  'sid',
  'sessionid',
  'session_id',
  'aspsessionid',
  'cfid',
  'cftoken',
  'zenid',
  'oscsid',
]);

function isStrippedParam(name: string): boolean {
  const n = name.toLowerCase();
  return n.startsWith('utm_') || STRIP_PARAMS.has(n);
}

/**
 * Normalises an absolute or relative URL for dedup: resolves against `base`, keeps only http(s),
 * lowercases scheme and host (URL parser), drops the fragment, default ports, credentials,
 * `;jsessionid=...` style path parameters, tracking (utm_*, gclid, fbclid, ...) and session
 * (jsessionid, phpsessid, sid, ...) query parameters, and sorts the remaining query parameters
 * (stable for equal names). An empty path becomes '/'. Returns null for anything unusable.
 */
export function normalizeUrl(url: string, base?: string): string | null {
  if (typeof url !== 'string') return null;
  const raw = url.trim();
  if (raw === '' || /^(javascript|mailto|tel|data|about|blob|ftp|file):/i.test(raw)) return null;
  let u: URL;
  try {
    u = base ? new URL(raw, base) : new URL(raw);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (!u.hostname) return null;
  u.hash = '';
  u.username = '';
  u.password = '';
  // Path session ids: /cart;jsessionid=ABC → /cart
  u.pathname = u.pathname.replace(/;(jsessionid|phpsessid|sid|sessionid)=[^/]*/gi, '');
  if (!u.search) {
    u.search = ''; // drops a bare trailing '?'
  } else {
    const kept = [...u.searchParams.entries()].filter(([k]) => !isStrippedParam(k));
    kept.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const sp = new URLSearchParams();
    for (const [k, v] of kept) sp.append(k, v);
    const s = sp.toString();
    u.search = s ? `?${s}` : '';
  }
  return u.toString();
}

/** Host key of the "same site" scope: lowercase host without a leading "www.", plus the port. */
export function siteKey(url: string | URL): string {
  const u = typeof url === 'string' ? new URL(url) : url;
  const host = u.hostname.toLowerCase().replace(/^www\./, '');
  return u.port ? `${host}:${u.port}` : host;
}

/** Same site = same host (www. and apex are one site), same explicit port; http and https both count. */
export function isSameSite(url: string, site: string): boolean {
  try {
    return siteKey(url) === site;
  } catch {
    return false;
  }
}
