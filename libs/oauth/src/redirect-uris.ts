const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A redirect URI we accept at registration: https anywhere, or http on a loopback host
 * (any port; RFC 8252). No fragment, no credentials.
 */
export function isAcceptableRedirectUri(value: unknown): boolean {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return false;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return false;
  }
  if (u.hash !== '' || value.includes('#') || u.username !== '' || u.password !== '') return false;
  if (u.protocol === 'https:') return true;
  return u.protocol === 'http:' && LOOPBACK.has(u.hostname);
}
