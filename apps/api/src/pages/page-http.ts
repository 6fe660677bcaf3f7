import type { Request, Response } from 'express';
import { PAGE_CSP } from './account-pages';

/** The most a page form may send (sign-in, sign-out, consent): far more than they need. */
const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * The fields of an `application/x-www-form-urlencoded` body (empty for any other type),
 * or null when it is larger than a page form can need. The page routes read their forms
 * here: the app's JSON body parser leaves such bodies alone.
 */
export async function readForm(req: Request): Promise<URLSearchParams | null> {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' || req.readableEnded) {
    return new URLSearchParams();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT_BYTES) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * The headers of every page people see (account area, sign-in and consent of the
 * authorization flow): no permissive CORS, the strict CSP, no framing, no caching.
 * `same-origin`, not `no-referrer`: with no-referrer a browser sends `Origin: null` on form
 * posts, which the cross-site check (rightly) refuses.
 */
export function pageHeaders(res: Response, csp = PAGE_CSP): void {
  res.removeHeader('Access-Control-Allow-Origin');
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Robots-Tag', 'noindex, nofollow');
  res.setHeader('Cache-Control', 'no-store');
}
