import type { Request, Response } from 'express';

/**
 * How the pages people use are sent: their headers, their forms, and rendering a template
 * with `res.render` (the view engine is PageViews, set up by installPages).
 */

/** Strict: only this origin's files; no framing, no plugins, forms post here only. */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

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

/**
 * Renders a page template (`<feature>/views/<name>`, see PageViews) with its view model
 * through Express's `res.render` and sends it. The caller has set the page's headers
 * (pageHeaders, or the report's own). A rendering error rejects, so it reaches the app's
 * exception filter like any other error (a 500 in the envelope, logged).
 */
export function renderPage(
  res: Response,
  status: number,
  template: string,
  model: object,
): Promise<void> {
  return new Promise((resolve, reject) => {
    res.render(template, model, (err: Error | null, html?: string) => {
      if (err) return reject(err);
      res.status(status).type('text/html; charset=utf-8').send(html);
      resolve();
    });
  });
}

/** A page's 303 redirect, with the page headers. */
export function redirectPage(res: Response, location: string): void {
  pageHeaders(res);
  res.status(303).setHeader('Location', location);
  res.end();
}
