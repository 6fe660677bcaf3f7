/** `Bearer <token>`: the scheme in any case, blanks (space, tab) around the one token. */
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The token of an Authorization header of the Bearer scheme (RFC 6750 §2.1), or null when
 * the header is absent, empty, of another scheme, or carries no token or more than one
 * word. The one parser of the API's key, the admin and operator token, the hosted MCP
 * endpoint's token and the worker's metrics token.
 */
export function bearerToken(authorization: string | null | undefined): string | null {
  if (!authorization) return null;
  const m = BEARER.exec(authorization);
  return m ? m[1] : null;
}
