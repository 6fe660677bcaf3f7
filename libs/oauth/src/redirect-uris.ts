const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Longest redirect URI accepted (characters). */
const MAX_REDIRECT_URI_LENGTH = 512;

/** What `isAcceptableRedirectUri` asks, as the error description of a refusal. */
export const REDIRECT_URI_RULE = `redirect_uris must be https, or http on a loopback host (localhost, 127.0.0.1, [::1]), at most ${MAX_REDIRECT_URI_LENGTH} characters, without fragment or user info.`;

/**
 * A redirect URI we accept at registration: https anywhere, or http on a loopback host
 * (any port; RFC 8252). No fragment, no credentials.
 */
export function isAcceptableRedirectUri(value: unknown): boolean {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_REDIRECT_URI_LENGTH) {
    return false;
  }
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

/** A loopback http redirect URI split at its port: scheme and host, port, path and query. */
const LOOPBACK_URI = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::(\d{1,5}))?([/?][^#]*)?$/;

/**
 * Whether a redirect_uri sent with an authorization request is one the client registered:
 * the same string (RFC 6749 §3.1.2.3, OAuth 2.1 §4.1.1, no normalization: another case,
 * a fragment, user info, an added slash or query are all another URI), with one exception:
 * for a registered loopback http URI the port may differ (RFC 8252 §7.3: a native app
 * listens on whatever port it is given).
 */
export function redirectUriMatches(requested: unknown, registered: string): boolean {
  if (typeof requested !== 'string') return false;
  if (requested === registered) return true;
  const asked = LOOPBACK_URI.exec(requested);
  const known = LOOPBACK_URI.exec(registered);
  if (!asked || !known) return false;
  const port = asked[2] === undefined ? 80 : Number(asked[2]);
  return (
    asked[1] === known[1] && (asked[3] ?? '') === (known[3] ?? '') && port >= 1 && port <= 65535
  );
}
