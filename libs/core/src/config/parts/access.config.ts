import { z } from 'zod';
import { int, token } from './env-values';

/** Who may call: the admin token, the request and sign-in throttles, the API-key cache. */
export const accessEnv = z.object({
  ADMIN_TOKEN: token(),
  RATE_LIMIT_WINDOW_SECONDS: int(1, 3600, 60),
  SIGN_IN_WINDOW_SECONDS: int(1, 86_400, 900),
  ADMIN_AUTH_WINDOW_SECONDS: int(1, 3600, 60),
  KEY_CACHE_TTL_MS: int(0, 5000, 5000),
});
type AccessEnv = z.infer<typeof accessEnv>;

export interface AccessConfig {
  adminToken: string | undefined;
  rateLimitWindowSeconds: number;
  /** SIGN_IN_WINDOW_SECONDS: the window of the sign-in failure throttle (docs/account-sessions.md). */
  signInWindowSeconds: number;
  /** ADMIN_AUTH_WINDOW_SECONDS: the window of the failed admin-token throttle (20 failures per client IP). */
  adminAuthWindowSeconds: number;
  keyCacheTtlMs: number;
}

export function accessConfig(e: AccessEnv): AccessConfig {
  return {
    adminToken: e.ADMIN_TOKEN,
    rateLimitWindowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
    signInWindowSeconds: e.SIGN_IN_WINDOW_SECONDS,
    adminAuthWindowSeconds: e.ADMIN_AUTH_WINDOW_SECONDS,
    keyCacheTtlMs: e.KEY_CACHE_TTL_MS,
  };
}
