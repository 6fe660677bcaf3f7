import { z } from 'zod';
import { int } from './env-values';

/** OAuth dynamic client registration (docs/oauth.md). */
export const oauthEnv = z.object({
  OAUTH_REGISTRATIONS_PER_ADDRESS: int(1, 10_000, 30),
  OAUTH_REGISTRATIONS_PER_HOUR: int(1, 1_000_000, 1_000),
  OAUTH_UNUSED_CLIENT_TTL_SECONDS: int(60, 30 * 86_400, 86_400),
});

export interface OAuthConfig {
  /** RFC 7591 registrations of the OAuth server (docs/oauth.md, "Registration limits"). */
  oauthRegistrations: {
    /** OAUTH_REGISTRATIONS_PER_ADDRESS: per clock hour and IPv4 address or IPv6 /64. */
    perAddress: number;
    /** OAUTH_REGISTRATIONS_PER_HOUR: per clock hour over all addresses. */
    perHour: number;
    /** OAUTH_UNUSED_CLIENT_TTL_SECONDS: a client never used for an authorization is purged after this. */
    unusedTtlSeconds: number;
  };
}

export function oauthConfig(e: z.infer<typeof oauthEnv>): OAuthConfig {
  return {
    oauthRegistrations: {
      perAddress: e.OAUTH_REGISTRATIONS_PER_ADDRESS,
      perHour: e.OAUTH_REGISTRATIONS_PER_HOUR,
      unusedTtlSeconds: e.OAUTH_UNUSED_CLIENT_TTL_SECONDS,
    },
  };
}
