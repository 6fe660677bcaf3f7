import { z } from 'zod';
import { int, url } from './env-values';

/**
 * Google OAuth and the Search Console API (docs/gsc-connect.md): the web client's id and
 * secret, and the endpoints (Google's documented ones by default; tests point them at a
 * local fake). Without GOOGLE_CLIENT_ID the console offers sandbox properties instead.
 */
export const googleEnv = z.object({
  GOOGLE_CLIENT_ID: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim())),
  GOOGLE_CLIENT_SECRET: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : v)),
  GOOGLE_OAUTH_AUTHORIZE_URL: url(
    ['http:', 'https:'],
    'https://accounts.google.com/o/oauth2/v2/auth',
  ),
  GOOGLE_OAUTH_TOKEN_URL: url(['http:', 'https:'], 'https://oauth2.googleapis.com/token'),
  GOOGLE_OAUTH_REVOKE_URL: url(['http:', 'https:'], 'https://oauth2.googleapis.com/revoke'),
  GOOGLE_USERINFO_URL: url(['http:', 'https:'], 'https://openidconnect.googleapis.com/v1/userinfo'),
  GOOGLE_SEARCH_CONSOLE_URL: url(['http:', 'https:'], 'https://www.googleapis.com/webmasters/v3'),
  GOOGLE_TIMEOUT_MS: int(100, 600_000, 30_000),
});
type GoogleEnv = z.infer<typeof googleEnv>;

export interface GoogleConfig {
  /** Google OAuth and Search Console (docs/gsc-connect.md). */
  google: {
    /** GOOGLE_CLIENT_ID: the OAuth web client; undefined: sandbox properties only. */
    clientId: string | undefined;
    /** GOOGLE_CLIENT_SECRET: the web client's secret (never logged). */
    clientSecret: string | undefined;
    /** GOOGLE_OAUTH_AUTHORIZE_URL: the authorization endpoint the browser is sent to. */
    authorizeUrl: string;
    /** GOOGLE_OAUTH_TOKEN_URL: code exchange and refresh. */
    tokenUrl: string;
    /** GOOGLE_OAUTH_REVOKE_URL: revocation of a refresh token on disconnect. */
    revokeUrl: string;
    /** GOOGLE_USERINFO_URL: the OIDC userinfo endpoint (the Google e-mail). */
    userinfoUrl: string;
    /** GOOGLE_SEARCH_CONSOLE_URL: `{url}/sites`, `{url}/sites/{site}/searchAnalytics/query`. */
    searchConsoleUrl: string;
    /** GOOGLE_TIMEOUT_MS: bound on one Google request, reading the body included. */
    timeoutMs: number;
  };
}

export function googleConfig(e: GoogleEnv): GoogleConfig {
  return {
    google: {
      clientId: e.GOOGLE_CLIENT_ID,
      clientSecret: e.GOOGLE_CLIENT_SECRET,
      authorizeUrl: e.GOOGLE_OAUTH_AUTHORIZE_URL!,
      tokenUrl: e.GOOGLE_OAUTH_TOKEN_URL!,
      revokeUrl: e.GOOGLE_OAUTH_REVOKE_URL!,
      userinfoUrl: e.GOOGLE_USERINFO_URL!,
      searchConsoleUrl: e.GOOGLE_SEARCH_CONSOLE_URL!,
      timeoutMs: e.GOOGLE_TIMEOUT_MS,
    },
  };
}

export function checkGoogle(e: GoogleEnv, ctx: z.RefinementCtx): void {
  if (e.GOOGLE_CLIENT_ID && !e.GOOGLE_CLIENT_SECRET) {
    ctx.addIssue({
      code: 'custom',
      path: ['GOOGLE_CLIENT_SECRET'],
      message: 'GOOGLE_CLIENT_ID needs GOOGLE_CLIENT_SECRET',
    });
  }
}
