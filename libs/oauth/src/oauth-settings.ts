/** What the authorization server needs to know about itself (provided by the API app). */
export interface OAuthSettings {
  /** The issuer: PUBLIC_BASE_URL without a trailing slash. */
  issuer: string;
  /** The one protected resource, BASE/mcp: the audience of every token. */
  resource: string;
  /** The scopes a client may ask for (every approval grants a subset). */
  scopes: readonly string[];
}

export const OAUTH_SETTINGS = Symbol('OAUTH_SETTINGS');

/** Authorization codes live at most this long. */
export const CODE_TTL_SECONDS = 60;
/** Access tokens live at most this long (the `expires_in` of every token answer). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Refresh tokens (rotated at each use) live at most this long. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
