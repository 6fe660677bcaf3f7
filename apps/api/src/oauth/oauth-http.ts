import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { PAGE_CSP } from '../pages/page-response';

/**
 * A PKCE S256 challenge as RFC 7636 §4.2 allows it: 43-128 characters of the unreserved set
 * minus '.' and '~' (a base64url SHA-256 is 43). Checked at the authorization request, so
 * the consent page is only shown for a challenge its approval accepts.
 */
export const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43,128}$/;

/**
 * The consent page's Content-Security-Policy: the account pages' strict policy, with the
 * client's redirect origin added to form-action (browsers apply form-action to the
 * redirect that follows the form post, so 'self' alone would block the return to the app).
 * A native app's private-use scheme has no origin (`null`): its scheme is added instead
 * (`cursor:`), a scheme the registration rule allows only for redirect URIs.
 */
export function consentPageCsp(redirectUri: string): string {
  const url = new URL(redirectUri);
  const source = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  return PAGE_CSP.replace("form-action 'self'", `form-action 'self' ${source}`);
}

/** An authorization response URL: redirect_uri plus the parameters and `iss` (RFC 9207). */
export function authorizationRedirect(
  redirectUri: string,
  params: Record<string, string | undefined>,
  issuer: string,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  url.searchParams.set('iss', issuer);
  return url.href;
}

/** The first issue of a schema-validation dump, as the SDK's handlers put it in a description. */
interface SchemaIssue {
  path?: unknown[];
  code?: string;
  message?: string;
  values?: unknown[];
}

/**
 * An `error_description` a person can read (RFC 6749 §5.2): the SDK's handlers write the
 * whole list of schema issues, as multi-line JSON, when a parameter fails validation. That
 * becomes one sentence about the first failed parameter ("grant_type is required.",
 * "code_challenge_method must be S256."); any other description is kept.
 */
function readableDescription(description: unknown): unknown {
  if (typeof description !== 'string' || !description.trimStart().startsWith('[')) {
    return description;
  }
  let issues: unknown;
  try {
    issues = JSON.parse(description);
  } catch {
    return description;
  }
  if (!Array.isArray(issues) || issues.length === 0) return 'The request is not valid.';
  const issue = issues[0] as SchemaIssue;
  const field = (issue.path ?? []).map(String).join('.') || 'the request';
  const message = String(issue.message ?? '');
  if (/received undefined/.test(message)) return `${field} is required.`;
  if (Array.isArray(issue.values) && issue.values.length > 0) {
    return `${field} must be ${issue.values.map(String).join(' or ')}.`;
  }
  const detail = message
    .replace(/^Invalid input:?\s*/i, '')
    .replace(/[\n\r]+/g, ' ')
    .slice(0, 100);
  return detail ? `${field} is not valid (${detail}).` : `${field} is not valid.`;
}

/**
 * Routes this response's `res.redirect` (both of Express's signatures) through `handle`, which
 * gets the status, the target and the original redirect to call, or not. The SDK's routers
 * answer authorization errors with res.redirect; this is how we shape those answers.
 */
export function interceptRedirects(
  res: Response,
  handle: (status: number, target: string, redirect: (status: number, url: string) => void) => void,
): void {
  const redirect = res.redirect.bind(res) as (status: number, url: string) => void;
  (res as unknown as { redirect: (a: number | string, b?: string) => void }).redirect = (
    a: number | string,
    b?: string,
  ) => handle(typeof a === 'number' ? a : 302, typeof a === 'string' ? a : (b as string), redirect);
}

/**
 * Runs one of the SDK's express routers (mounted at '/') for this request: the path is
 * rewritten to '/' for the router's matching and restored afterwards. Redirects the router
 * sends to the client (authorization errors) get `iss` added (RFC 9207), and the request's
 * `state` when the router left it out (it does when other parameters fail validation).
 * Error descriptions, in JSON answers and in redirects, are made readable
 * (`readableDescription`).
 */
export function runSdkRouter(
  router: RequestHandler,
  req: Request,
  res: Response,
  redirects?: { issuer: string; state?: string },
): Promise<void> {
  readableJsonErrors(res);
  if (redirects) {
    interceptRedirects(res, (status, target, redirect) => {
      redirect(status, completedRedirect(target, redirects));
    });
  }
  return routeAtRoot(router, req, res);
}

/** JSON answers of this response get their `error_description` made readable. */
function readableJsonErrors(res: Response): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (body && typeof body === 'object' && 'error_description' in body) {
      const b = body as { error_description?: unknown };
      return json({ ...b, error_description: readableDescription(b.error_description) });
    }
    return json(body);
  };
}

/**
 * A redirect to the client with `iss`, the request's `state` when missing and a readable
 * `error_description`; a relative target (ours) is left alone.
 */
function completedRedirect(target: string, redirects: { issuer: string; state?: string }): string {
  try {
    const u = new URL(target);
    if (redirects.state !== undefined && !u.searchParams.has('state')) {
      u.searchParams.set('state', redirects.state);
    }
    if (!u.searchParams.has('iss')) u.searchParams.set('iss', redirects.issuer);
    const description = u.searchParams.get('error_description');
    if (description !== null) {
      u.searchParams.set('error_description', String(readableDescription(description)));
    }
    return u.href;
  } catch {
    // a relative target: ours, left alone
    return target;
  }
}

/**
 * Runs the router with the path rewritten to '/' (the query kept), restoring it afterwards;
 * settles when the response is sent or the router passes the request on (404) or fails.
 */
function routeAtRoot(router: RequestHandler, req: Request, res: Response): Promise<void> {
  const originalUrl = req.url;
  const query = originalUrl.includes('?') ? originalUrl.slice(originalUrl.indexOf('?')) : '';
  return new Promise<void>((resolve, reject) => {
    req.url = `/${query}`;
    const next: NextFunction = (err?: unknown) => {
      req.url = originalUrl;
      if (err && err !== 'route' && err !== 'router') {
        routerFailed(err, res, resolve, reject);
        return;
      }
      if (!res.headersSent) {
        res.status(404).json({ error: 'invalid_request', error_description: 'Not found.' });
      }
      resolve();
    };
    res.once('finish', () => resolve());
    res.once('close', () => resolve());
    try {
      router(req, res, next);
    } catch (err) {
      req.url = originalUrl;
      reject(err);
    }
  });
}

/** A body the router's parser refused (malformed, too large): RFC 6749, never a 500. */
function routerFailed(
  err: unknown,
  res: Response,
  resolve: () => void,
  reject: (err: unknown) => void,
): void {
  const status = (err as { status?: unknown } | undefined)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500 && !res.headersSent) {
    res.status(400).json({
      error: 'invalid_request',
      error_description: 'The request body is malformed.',
    });
    resolve();
  } else reject(err);
}

/** The client-facing OAuth endpoints whose bodies the API's parsers read (JSON or form). */
const OAUTH_BODY_URL = /^\/(register|token|revoke)\/?$/i;

/** Why a body was refused, as the one sentence of `error_description`. */
function bodyProblem(err: unknown): string {
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') return 'The request body is not valid JSON.';
  if (type === 'entity.too.large') return 'The request body is too large.';
  if (typeof type === 'string' && (type.startsWith('encoding.') || type.startsWith('charset.'))) {
    return 'The request body encoding is not supported: send UTF-8.';
  }
  return 'The request body is malformed.';
}

/**
 * Error middleware placed after the body parser and the body bounds: a body of /register,
 * /token or /revoke that cannot be read (not JSON, too large, too deep) is answered as the
 * OAuth error it is — 400 `{error: "invalid_request", error_description}` (RFC 6749 §5.2,
 * RFC 7591 §3.2.2), with CORS and no-store like the SDK's answers — never the REST envelope.
 * A body over the size limit keeps its 413 (the HTTP answer a proxy or client retry logic
 * reads), with the same OAuth body.
 * Only client errors (4xx) are taken; anything else goes on to the exception filter.
 */
export function oauthBodyErrors() {
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    const status = (err as { status?: unknown } | null)?.status;
    if (
      !OAUTH_BODY_URL.test(req.path) ||
      typeof status !== 'number' ||
      status < 400 ||
      status >= 500 ||
      res.headersSent
    ) {
      return next(err);
    }
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cache-Control', 'no-store');
    res
      .status(status === 413 ? 413 : 400)
      .json({ error: 'invalid_request', error_description: bodyProblem(err) });
  };
}
