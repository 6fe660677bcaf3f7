import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { plainDate, recordTimestamp } from '@app/core';
import { ACCOUNT_CONSOLE_JS, ACCOUNT_CSS } from './account-assets';

/**
 * The account pages (GET /account/sign-in, GET /account): server-rendered HTML, one
 * stylesheet and one script served by the API itself (/account/assets/...), no inline
 * script or style, no outside resources. Every value written into HTML goes through esc().
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

export const SIGN_IN_PATH = '/account/sign-in';
export const CONSOLE_PATH = '/account';
/** The short-lived cookie of the sign-in form's CSRF token (double submit). */
export const SIGN_IN_CSRF_COOKIE = 'seo_signin_csrf';
export const SIGN_IN_CSRF_MAX_AGE_SECONDS = 3600;
export const CSRF_FIELD = 'csrf_token';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for an HTML text node or a double-quoted attribute. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * `return_to` when it is a path on this origin, else null: one leading slash (not `//`), no
 * backslash, no control characters or whitespace, no scheme, and still on this origin once
 * a browser has resolved it.
 */
export function safeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null;
  if (!value.startsWith('/') || value.startsWith('//')) return null;
  if (value.includes('\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(value)) return null;
  try {
    const base = new URL('http://account.invalid');
    const resolved = new URL(value, base);
    if (resolved.origin !== base.origin) return null;
    // Check what is returned, not what was given: `/.//x`, `/..//x` and `/%2e%2e//x`
    // resolve to `//x`, which a browser reads as another host.
    const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
    if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null;
    return path;
  } catch {
    return null;
  }
}

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

// ---------------------------------------------------------------------------------------
// Assets: served at /account/assets/<name>?v=<content hash>, so they can be cached for long.

export interface PageAsset {
  body: string;
  type: string;
  version: string;
}

const version = (body: string): string =>
  createHash('sha256').update(body).digest('hex').slice(0, 12);

export const PAGE_ASSETS: Readonly<Record<string, PageAsset>> = {
  'account.css': {
    body: ACCOUNT_CSS,
    type: 'text/css; charset=utf-8',
    version: version(ACCOUNT_CSS),
  },
  'account-console.js': {
    body: ACCOUNT_CONSOLE_JS,
    type: 'text/javascript; charset=utf-8',
    version: version(ACCOUNT_CONSOLE_JS),
  },
};

const assetUrl = (name: string): string => `/account/assets/${name}?v=${PAGE_ASSETS[name].version}`;

export function layout(title: string, body: string, withScript: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${esc(title)} · SEO data API</title>
<link rel="stylesheet" href="${esc(assetUrl('account.css'))}">
${withScript ? `<script src="${esc(assetUrl('account-console.js'))}" defer></script>\n` : ''}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${body}
</body>
</html>
`;
}

// ---------------------------------------------------------------------------------------
// Sign-in

export interface SignInView {
  csrfToken: string;
  /** What was typed in the email field (never the password). */
  email?: string;
  /** A safe return_to path (already checked), echoed back in a hidden input. */
  returnTo?: string | null;
  /** The message shown above the form after a failure. */
  error?: string;
  /** A neutral notice (e.g. after signing out). */
  notice?: string;
}

export function renderSignIn(view: SignInView): string {
  const message = view.error
    ? `<div class="alert alert-error" role="alert" id="sign-in-error">${esc(view.error)}</div>`
    : view.notice
      ? `<div class="alert alert-info" role="status">${esc(view.notice)}</div>`
      : '';
  const describedBy = view.error ? ' aria-describedby="sign-in-error"' : '';
  const returnTo = view.returnTo
    ? `<input type="hidden" name="return_to" value="${esc(view.returnTo)}">`
    : '';
  const body = `<header class="top"><span class="brand">SEO data API</span></header>
<main id="main" class="narrow">
<h1>Sign in to your account</h1>
${message}
<form method="post" action="${SIGN_IN_PATH}" class="card stack" novalidate>
<input type="hidden" name="${CSRF_FIELD}" value="${esc(view.csrfToken)}">
${returnTo}
<div class="field">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${esc(view.email ?? '')}"${describedBy}${view.email ? '' : ' autofocus'}>
</div>
<div class="field">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${describedBy}${view.email ? ' autofocus' : ''}>
</div>
<button type="submit" class="primary">Sign in</button>
</form>
<p class="hint">Accounts and their people are set up by our team. Forgot your password? Ask your account's owner or our support to set a new one.</p>
</main>`;
  return layout('Sign in', body, false);
}

// ---------------------------------------------------------------------------------------
// Console

export interface ConsoleKey {
  id: number;
  label: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface ConsoleQuota {
  name: string;
  used: number;
  limit: number;
}

export interface ConsoleView {
  csrfToken: string;
  email: string;
  accountName: string;
  plan: string;
  apiAccess: boolean;
  callsUsed: number;
  /** null when the account's call allowance is unlimited. */
  callsLimit: number | null;
  resetsAt: Date;
  quotas: ConsoleQuota[];
  credits: number;
  keys: ConsoleKey[];
}

const PLAN_TITLES: Record<string, string> = {
  free: 'Free',
  starter: 'Starter',
  pro: 'Pro',
  agency: 'Agency',
};

export const planTitle = (plan: string): string => PLAN_TITLES[plan] ?? plan;

const num = (n: number): string => n.toLocaleString('en-US');
const when = (d: Date | null): string => (d ? `${recordTimestamp(d)} UTC` : '');

function keyRow(k: ConsoleKey): string {
  const action = k.revokedAt
    ? `<span class="muted">Revoked ${esc(when(k.revokedAt))}</span>`
    : `<button type="button" class="danger" data-revoke-key="${esc(k.id)}" data-label="${esc(k.label)}">Revoke<span class="visually-hidden"> key ${esc(k.label)}</span></button>`;
  return `<tr data-key-id="${esc(k.id)}"${k.revokedAt ? ' class="revoked"' : ''}>
<td data-label="Label" class="key-label">${esc(k.label)}</td>
<td data-label="Prefix"><code>${esc(k.prefix)}…</code></td>
<td data-label="Created">${esc(when(k.createdAt))}</td>
<td data-label="Last used">${k.lastUsedAt ? esc(when(k.lastUsedAt)) : '<span class="muted">never</span>'}</td>
<td data-label="Action" class="key-action">${action}</td>
</tr>`;
}

function usageSection(v: ConsoleView): string {
  const calls =
    v.callsLimit === null
      ? `<p><strong>${esc(num(v.callsUsed))}</strong> API calls this month (your allowance is unlimited).</p>`
      : `<p id="calls-text"><strong>${esc(num(v.callsUsed))}</strong> of ${esc(num(v.callsLimit))} API calls used this month.</p>
<progress id="calls-bar" max="${esc(Math.max(v.callsLimit, 1))}" value="${esc(Math.min(v.callsUsed, Math.max(v.callsLimit, 1)))}" aria-labelledby="calls-text">${esc(num(v.callsUsed))} of ${esc(num(v.callsLimit))}</progress>`;
  const quotas = v.quotas
    .map(
      (q) =>
        `<tr><th scope="row">${esc(q.name)}</th><td data-label="Used">${esc(num(q.used))}</td><td data-label="Of">${esc(num(q.limit))}</td></tr>`,
    )
    .join('\n');
  return `<section aria-labelledby="usage-heading" class="card">
<h2 id="usage-heading">Usage</h2>
${v.apiAccess ? calls : '<p>Your plan does not include API calls.</p>'}
<p class="muted">Monthly figures reset on ${esc(plainDate(v.resetsAt))} (UTC).</p>
<table class="quotas">
<caption>Feature quotas this month</caption>
<thead><tr><th scope="col">Feature</th><th scope="col">Used</th><th scope="col">Of</th></tr></thead>
<tbody>
${quotas}
</tbody>
</table>
<p>Credits: <strong id="credits">${esc(num(v.credits))}</strong> <span class="muted">(used for backlinks fetches beyond the monthly quota)</span></p>
</section>`;
}

function keysSection(v: ConsoleView): string {
  const create = v.apiAccess
    ? `<form id="create-key-form" class="stack" novalidate>
<div class="field">
<label for="key-label">Label for a new key</label>
<input id="key-label" name="label" type="text" required maxlength="100" autocomplete="off" placeholder="e.g. Reporting script" aria-describedby="key-label-hint">
<p class="hint" id="key-label-hint">1 to 100 characters, to tell your keys apart (shown as meta.key_name in API answers).</p>
</div>
<button type="submit" class="primary">Create key</button>
</form>
<div id="new-key" class="new-key" hidden tabindex="-1" aria-labelledby="new-key-heading">
<h3 id="new-key-heading">Your new key</h3>
<p class="alert alert-warn"><strong>Copy this key now.</strong> It will not be shown again: we keep only a fingerprint of it. If you lose it, revoke it and create another.</p>
<div class="field">
<label for="new-key-value">Key <span id="new-key-label" class="muted"></span></label>
<div class="copy-row">
<input id="new-key-value" type="text" readonly spellcheck="false" autocomplete="off">
<button type="button" id="copy-key" class="primary">Copy</button>
</div>
</div>
<p id="copy-status" role="status" aria-live="polite"></p>
<button type="button" id="new-key-done">I have saved it, hide the key</button>
</div>`
    : `<p class="alert alert-info" id="no-api-access">Your plan (${esc(planTitle(v.plan))}) does not include API access, so API keys cannot be created. Keys are available on the Pro and Agency plans: contact us to upgrade.</p>`;
  const rows = v.keys.map(keyRow).join('\n');
  return `<section aria-labelledby="keys-heading" class="card">
<h2 id="keys-heading">API keys</h2>
<p id="keys-status" role="status" aria-live="polite" class="status" tabindex="-1"></p>
${create}
<table id="keys-table" class="responsive">
<caption>Your account's keys, newest first</caption>
<thead><tr><th scope="col">Label</th><th scope="col">Prefix</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody id="keys-body">
${rows}
</tbody>
</table>
<p id="keys-empty" class="muted"${v.keys.length ? ' hidden' : ''}>No keys yet.</p>
</section>`;
}

function connectionsSection(): string {
  return `<section aria-labelledby="connections-heading" class="card">
<h2 id="connections-heading">Connected apps</h2>
<p class="hint">AI assistants you have connected through our hosted connector (OAuth). Revoking one ends its access at once.</p>
<p id="connections-status" role="status" aria-live="polite" class="status"></p>
<ul id="connections-list" class="connections"></ul>
<p id="connections-empty" class="muted">Loading…</p>
</section>`;
}

function webhooksSection(): string {
  return `<section aria-labelledby="webhooks-heading" class="card">
<h2 id="webhooks-heading">Webhooks</h2>
<p class="hint">Site audits started with a <code>webhook_url</code> are POSTed there when they finish, signed with this secret (Standard Webhooks: verify the <code>webhook-signature</code> header). After a rotation the old secret keeps signing for 24 hours.</p>
<div class="field">
<label for="webhook-secret">Signing secret</label>
<div class="copy-row">
<input id="webhook-secret" type="password" readonly spellcheck="false" autocomplete="off" value="">
<button type="button" id="reveal-webhook-secret" aria-pressed="false" aria-controls="webhook-secret">Reveal</button>
<button type="button" id="copy-webhook-secret">Copy</button>
</div>
<p id="webhook-secret-meta" class="hint"></p>
</div>
<p id="webhooks-status" role="status" aria-live="polite" class="status"></p>
<button type="button" id="rotate-webhook-secret" class="danger">Rotate secret</button>
<table id="deliveries-table" class="responsive">
<caption>Last webhook deliveries, newest first</caption>
<thead><tr><th scope="col">Job</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last code</th><th scope="col">Last attempt</th></tr></thead>
<tbody id="deliveries-body"></tbody>
</table>
<p id="deliveries-empty" class="muted">Loading…</p>
</section>`;
}

function passwordSection(email: string): string {
  return `<section aria-labelledby="password-heading" class="card">
<h2 id="password-heading">Change password</h2>
<form id="password-form" class="stack" novalidate>
<input type="text" name="username" autocomplete="username" value="${esc(email)}" hidden>
<div class="field">
<label for="current-password">Current password</label>
<input id="current-password" name="current_password" type="password" autocomplete="current-password" required maxlength="256">
</div>
<div class="field">
<label for="new-password">New password</label>
<input id="new-password" name="new_password" type="password" autocomplete="new-password" required minlength="12" maxlength="256" aria-describedby="new-password-hint">
<p class="hint" id="new-password-hint">12 to 256 characters. Your other sessions are signed out.</p>
</div>
<div class="field">
<label for="confirm-password">New password again</label>
<input id="confirm-password" name="confirm_password" type="password" autocomplete="new-password" required maxlength="256">
</div>
<p id="password-status" role="status" aria-live="polite" class="status"></p>
<button type="submit" class="primary">Change password</button>
</form>
</section>`;
}

export function renderConsole(v: ConsoleView): string {
  const body = `<header class="top">
<span class="brand">SEO data API</span>
<span class="who"><span class="visually-hidden">Signed in as </span>${esc(v.email)}</span>
<form method="post" action="/account/sign-out" class="inline">
<input type="hidden" name="${CSRF_FIELD}" value="${esc(v.csrfToken)}">
<button type="submit" id="sign-out">Sign out</button>
</form>
</header>
<main id="main">
<h1>${esc(v.accountName)}</h1>
<p class="plan">Plan: <strong id="plan">${esc(planTitle(v.plan))}</strong></p>
${usageSection(v)}
${keysSection(v)}
${connectionsSection()}
${webhooksSection()}
${passwordSection(v.email)}
</main>`;
  return layout('Your account', body, true);
}

/** A short page for errors of the pages themselves (e.g. an expired form). */
export function renderMessage(title: string, message: string, link: string, linkText: string) {
  const body = `<header class="top"><span class="brand">SEO data API</span></header>
<main id="main" class="narrow">
<h1>${esc(title)}</h1>
<p class="alert alert-error" role="alert">${esc(message)}</p>
<p><a href="${esc(link)}">${esc(linkText)}</a></p>
</main>`;
  return layout(title, body, false);
}
