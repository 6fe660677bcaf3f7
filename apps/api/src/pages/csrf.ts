import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The form field of every page form's CSRF token. */
export const CSRF_FIELD = 'csrf_token';

/** A fresh random token for the sign-in form (kept in a short-lived cookie as well). */
export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The CSRF token of the signed-in pages, bound to the session: derived from the session
 * cookie (a one-way hash, so the page never shows anything that signs in).
 */
export function sessionCsrfToken(sessionToken: string): string {
  return createHash('sha256').update(`account-page-csrf:${sessionToken}`).digest('base64url');
}

/** Constant-time comparison of two tokens (false when either is missing). */
export function tokensMatch(given: unknown, expected: string | undefined | null): boolean {
  if (typeof given !== 'string' || !expected || given.length === 0) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
