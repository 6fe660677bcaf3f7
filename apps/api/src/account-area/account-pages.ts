import { plainDate, recordTimestamp } from '@app/core';
import { MARKETS, SUPPORTED_LANGUAGES } from '@app/providers';
import type { UsageDay, UsageEndpoint } from '@app/billing';
import { ConnectingApp, planTitle } from '../session/session-pages';
import { UsageChart, usageChart } from './usage-chart';

/**
 * The account pages (GET /account/sign-in, GET /account): their paths, the sign-in form's
 * `return_to` rule, and the view models of their templates (views/sign-in.hbs,
 * views/console.hbs). The stylesheet and the console's scripts are files (pages/assets,
 * account-area/assets) served under /assets; no inline script or style, no outside resources.
 */

export const CONSOLE_PATH = '/account';
/** The short-lived cookie of the sign-in form's CSRF token (double submit). */
export const SIGN_IN_CSRF_COOKIE = 'seo_signin_csrf';
export const SIGN_IN_CSRF_MAX_AGE_SECONDS = 3600;

export const SIGN_IN_PAGE = 'account-area/views/sign-in';
export const CONSOLE_PAGE = 'account-area/views/console';

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

const num = (n: number): string => n.toLocaleString('en-US');
const when = (d: Date): string => `${recordTimestamp(d)} UTC`;

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
  /** Set when signing in is the first step of connecting an app. */
  connectingApp?: ConnectingApp | null;
}

/** The model of views/sign-in.hbs. */
interface SignInPage extends SignInView {
  title: string;
  heading: string;
  email: string;
}

export function signInPage(view: SignInView): SignInPage {
  const app = view.connectingApp ?? null;
  const connect = app ? `Sign in to connect ${app.name ?? 'an app'}` : null;
  return {
    ...view,
    title: connect ?? 'Sign in',
    heading: connect ?? 'Sign in to your account',
    email: view.email ?? '',
  };
}

// ---------------------------------------------------------------------------------------
// Console

interface ConsoleKey {
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

interface ConsoleView {
  csrfToken: string;
  /** Whether Google Search Console can be connected (GOOGLE_CLIENT_ID), else sandbox only. */
  googleConfigured: boolean;
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
  /** Calls of each key this month (by key id). */
  keyCallsThisMonth: Map<number, number>;
  /** The last 30 days, oldest first. */
  days: UsageDay[];
  /** The endpoints of those days, most calls first. */
  endpoints: UsageEndpoint[];
  alerts: {
    webhookUrl: string | null;
    thresholds: number[];
    lastFired: Array<{ threshold: number; month: string; fired_at: string }>;
  };
}

/** How many endpoints the console lists. */
const TOP_ENDPOINTS = 5;

/** The model of views/console.hbs: every figure and date already written out. */
interface ConsolePage {
  title: string;
  styles: string[];
  scripts: string[];
  /** The section navigation: each section's element id and name, in page order. */
  sections: Array<{ id: string; name: string }>;
  csrfToken: string;
  googleConfigured: boolean;
  email: string;
  accountName: string;
  plan: string;
  apiAccess: boolean;
  calls: {
    used: string;
    /** null when unlimited */
    limit: string | null;
    barMax: number;
    barValue: number;
  };
  resetsOn: string;
  quotas: Array<{ name: string; used: string; limit: string }>;
  credits: string;
  keys: Array<{
    id: number;
    label: string;
    prefix: string;
    created: string;
    lastUsed: string | null;
    revoked: string | null;
    callsThisMonth: string;
  }>;
  chart: UsageChart;
  endpoints: Array<{ endpoint: string; calls: string }>;
  alerts: {
    webhookUrl: string;
    thresholds: string;
    on: boolean;
    lastFired: Array<{ threshold: number; month: string; firedAt: string }>;
  };
  /** The market choices of the rank-tracking and AI-visibility sections. */
  rankMarkets: {
    countries: Array<{ code: string; name: string; selected: boolean }>;
    languages: string[];
  };
}

/**
 * The console's browser scripts (account-area/assets), in the order they run: the shared
 * helpers first, then one per section of the page.
 */
const CONSOLE_SCRIPTS = [
  'console-common.js',
  'console-nav.js',
  'console-usage.js',
  'console-keys.js',
  'console-rank.js',
  'console-ai-visibility.js',
  'console-connections.js',
  'console-gsc.js',
  'console-webhooks.js',
  'console-audits.js',
  'console-alerts.js',
  'console-password.js',
];

/**
 * The console's sections in page order (element id, name in the navigation). These ids are
 * link targets (`/account#webhooks`): keep them.
 */
export const CONSOLE_SECTIONS: ReadonlyArray<{ id: string; name: string; apiOnly?: boolean }> = [
  { id: 'usage', name: 'Usage' },
  { id: 'usage-history', name: 'Calls by day' },
  { id: 'keys', name: 'API keys' },
  { id: 'alerts', name: 'Usage alerts', apiOnly: true },
  { id: 'rank-tracking', name: 'Rank tracking' },
  { id: 'ai-visibility', name: 'AI visibility' },
  { id: 'connections', name: 'Connected apps' },
  { id: 'search-console', name: 'Search Console' },
  { id: 'webhooks', name: 'Webhooks' },
  { id: 'site-audits', name: 'Site audits' },
  { id: 'password', name: 'Password' },
];

export function consolePage(v: ConsoleView): ConsolePage {
  return {
    title: 'Your account',
    styles: ['console.css'],
    scripts: [...CONSOLE_SCRIPTS],
    sections: CONSOLE_SECTIONS.filter((s) => v.apiAccess || !s.apiOnly).map(({ id, name }) => ({
      id,
      name,
    })),
    csrfToken: v.csrfToken,
    googleConfigured: v.googleConfigured,
    email: v.email,
    accountName: v.accountName,
    plan: planTitle(v.plan),
    apiAccess: v.apiAccess,
    calls: consoleCalls(v),
    resetsOn: plainDate(v.resetsAt),
    quotas: v.quotas.map((q) => ({ name: q.name, used: num(q.used), limit: num(q.limit) })),
    credits: num(v.credits),
    keys: consoleKeys(v),
    chart: usageChart(v.days),
    endpoints: v.endpoints
      .slice(0, TOP_ENDPOINTS)
      .map((e) => ({ endpoint: e.endpoint, calls: num(e.calls) })),
    alerts: consoleAlerts(v.alerts),
    rankMarkets: RANK_MARKETS,
  };
}

/** The country and language choices of the console's keyword form (defaults US, en, as the API's). */
const RANK_MARKETS: ConsolePage['rankMarkets'] = {
  countries: [...MARKETS]
    .sort((a, b) => a.location_name.localeCompare(b.location_name, 'en'))
    .map((m) => ({ code: m.country_iso, name: m.location_name, selected: m.country_iso === 'US' })),
  languages: [...SUPPORTED_LANGUAGES],
};

/** The month's calls and the bar drawing them against the limit (1 when unlimited). */
function consoleCalls(v: ConsoleView): ConsolePage['calls'] {
  const barMax = Math.max(v.callsLimit ?? 1, 1);
  return {
    used: num(v.callsUsed),
    limit: v.callsLimit === null ? null : num(v.callsLimit),
    barMax,
    barValue: Math.min(v.callsUsed, barMax),
  };
}

function consoleKeys(v: ConsoleView): ConsolePage['keys'] {
  return v.keys.map((k) => ({
    id: k.id,
    label: k.label,
    prefix: k.prefix,
    created: when(k.createdAt),
    lastUsed: k.lastUsedAt ? when(k.lastUsedAt) : null,
    revoked: k.revokedAt ? when(k.revokedAt) : null,
    callsThisMonth: num(v.keyCallsThisMonth.get(k.id) ?? 0),
  }));
}

function consoleAlerts(alerts: ConsoleView['alerts']): ConsolePage['alerts'] {
  return {
    webhookUrl: alerts.webhookUrl ?? '',
    thresholds: alerts.thresholds.join(', '),
    on: alerts.webhookUrl !== null,
    lastFired: alerts.lastFired.map((f) => ({
      threshold: f.threshold,
      month: f.month,
      firedAt: `${f.fired_at} UTC`,
    })),
  };
}
