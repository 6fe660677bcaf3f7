const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Longest redirect URI accepted (characters). */
const MAX_REDIRECT_URI_LENGTH = 512;

/**
 * Private-use URI schemes (RFC 8252 §7.1) accepted without a period. RFC 8252 asks native
 * apps for a reverse-domain scheme (`com.example.app`); these are the established schemes of
 * MCP clients that predate that advice. Adding one is a decision (see docs/oauth.md).
 */
export const KNOWN_APP_SCHEMES: readonly string[] = [
  'cursor',
  'vscode',
  'vscode-insiders',
  'windsurf',
];

/** A reverse-domain private-use scheme: lowercase labels joined by periods, at least two. */
const REVERSE_DOMAIN_SCHEME = /^[a-z][a-z0-9-]*(\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** What `isAcceptableRedirectUri` asks, as the error description of a refusal. */
export const REDIRECT_URI_RULE = `redirect_uris must be https, http on a loopback host (localhost, 127.0.0.1, [::1]), or a native app's private-use scheme (reverse-domain with a period such as com.example.app:/cb, or one of ${KNOWN_APP_SCHEMES.join(', ')}); lowercase scheme, printable ASCII, at most ${MAX_REDIRECT_URI_LENGTH} characters, without fragment or user info.`;

/**
 * The private-use scheme of a redirect URI of a native app (`cursor` for cursor://callback,
 * `com.example.app` for com.example.app:/cb), or null when it is not one (http, https,
 * anything else). Only schemes `isAcceptableRedirectUri` accepts are named.
 */
export function privateUseScheme(value: string): string | null {
  const colon = value.indexOf(':');
  if (colon <= 0) return null;
  const scheme = value.slice(0, colon);
  if (KNOWN_APP_SCHEMES.includes(scheme) || REVERSE_DOMAIN_SCHEME.test(scheme)) return scheme;
  return null;
}

/**
 * A redirect URI we accept at registration: https anywhere, http on a loopback host (any
 * port; RFC 8252 §7.3), or a private-use scheme of a native app (RFC 8252 §7.1: a
 * reverse-domain scheme with a period, or one of KNOWN_APP_SCHEMES). Everything else is
 * refused, so javascript:, data:, file:, vbscript:, about:, blob:, mailto: and any other
 * scheme a browser or the OS gives a meaning to never qualify. Always: printable ASCII only
 * (no spaces, control characters or invisible Unicode that the URL parser would silently drop
 * or that would disguise the address on the consent page), the scheme written in lowercase
 * (the string is matched exactly later), something after the scheme, no fragment, no
 * credentials.
 */
export function isAcceptableRedirectUri(value: unknown): boolean {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_REDIRECT_URI_LENGTH) {
    return false;
  }
  if (!/^[\x21-\x7e]+$/.test(value) || value.includes('#')) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):(.+)$/.exec(value);
  if (!scheme) return false;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return false;
  }
  if (u.hash !== '' || u.username !== '' || u.password !== '') return false;
  if (u.protocol === 'https:') return u.hostname !== '';
  if (u.protocol === 'http:') return LOOPBACK.has(u.hostname);
  return privateUseScheme(value) !== null && u.protocol === `${scheme[1]}:`;
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
