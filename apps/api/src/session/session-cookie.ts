import type { Request, Response } from 'express';
import { SESSION_MAX_MS } from '@app/accounts';

/** The session cookie's name (relied on from outside: docs/api.md, "Account area"). */
const SESSION_COOKIE = 'seo_session';

/** The value of a cookie in the request's Cookie header, or null (no cookie parser needed). */
export function readCookie(req: Request, name: string): string | null {
  const header = req.headers.cookie;
  if (typeof header !== 'string' || header.length === 0) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  return null;
}

/** The session token the request carries, or null. */
export function readSessionToken(req: Request): string | null {
  return readCookie(req, SESSION_COOKIE);
}

/** True when the service is served over https (PUBLIC_BASE_URL): cookies then carry `Secure`. */
export function isSecureBase(publicBaseUrl: string): boolean {
  return publicBaseUrl.toLowerCase().startsWith('https:');
}

function attributes(secure: boolean, maxAgeSeconds: number): string {
  return `; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * Sets the session cookie: HttpOnly, SameSite=Lax, Path=/, Secure over https; kept by the
 * browser for the absolute session lifetime (the server decides expiry).
 */
export function setSessionCookie(res: Response, token: string, secure: boolean): void {
  res.append(
    'Set-Cookie',
    `${SESSION_COOKIE}=${token}${attributes(secure, Math.floor(SESSION_MAX_MS / 1000))}`,
  );
}

/** Tells the browser to forget the session cookie. */
export function clearSessionCookie(res: Response, secure: boolean): void {
  res.append('Set-Cookie', `${SESSION_COOKIE}=${attributes(secure, 0)}`);
}
