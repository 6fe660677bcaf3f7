import { privateUseScheme } from '@app/oauth';
import { planTitle } from '../session/session-pages';
import { READ_SCOPE, WRITE_SCOPE } from './oauth-scopes';

/**
 * The OAuth pages' view models: the consent page (views/consent.hbs), the page for an
 * authorization request that cannot be sent back to the app (views/authorize-error.hbs).
 */

export const CONSENT_PAGE = 'oauth/views/consent';
export const AUTHORIZE_ERROR_PAGE = 'oauth/views/authorize-error';
export const HAND_BACK_PAGE = 'oauth/views/hand-back';

/** What the consent form carries back (checked again when it is posted). */
export interface ConsentRequest {
  client_id: string;
  redirect_uri: string;
  state?: string;
  code_challenge: string;
  code_challenge_method: 'S256';
  scope: string;
  resource?: string;
}

interface ConsentView {
  csrfToken: string;
  email: string;
  accountName: string;
  plan: string;
  clientName: string;
  clientId: string;
  /** True when the client is known by its metadata document (its id is a URL it controls). */
  clientVerifiedByUrl: boolean;
  redirectUri: string;
  scopes: string[];
  request: ConsentRequest;
}

/** The model of views/consent.hbs. */
interface ConsentPage {
  title: string;
  csrfToken: string;
  email: string;
  accountName: string;
  plan: string;
  clientName: string;
  /** Set when the client's identity is its metadata URL. */
  clientIdUrl: string | null;
  /** Where the browser returns: a web host, or a native app's scheme. */
  returnsTo: ReturnTarget;
  scopes: Array<{ name: string; text: string }>;
  /** The request's parameters, carried back as hidden inputs. */
  hidden: Array<{ name: string; value: string }>;
}

const SCOPE_TEXT: Record<string, string> = {
  [READ_SCOPE]:
    'Use the SEO data tools for your account: backlinks, keyword research, site audits, rank tracking, Search Console and AI-visibility data.',
  [WRITE_SCOPE]:
    'Change your rank tracking: create, rename, pause and delete projects, and add, pause and remove tracked keywords (deleting also removes their position history).',
};

/** The consent page: who asks, where it returns to, what it may do; approve or deny. */
export function consentPage(v: ConsentView): ConsentPage {
  return {
    title: `Connect ${v.clientName}`,
    csrfToken: v.csrfToken,
    email: v.email,
    accountName: v.accountName,
    plan: planTitle(v.plan),
    clientName: v.clientName,
    clientIdUrl: v.clientVerifiedByUrl ? v.clientId : null,
    returnsTo: returnTarget(v.redirectUri),
    scopes: v.scopes.map((s) => ({ name: s, text: SCOPE_TEXT[s] ?? s })),
    hidden: Object.entries(v.request)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([name, value]) => ({ name, value })),
  };
}

/**
 * Where a redirect URI returns the person, as the pages say it: the host of a web address
 * (`app.example`, `127.0.0.1:9999`), or, for a native app's private-use scheme (RFC 8252
 * §7.1), the scheme and the address without its query (`cursor:` and `cursor://callback`).
 */
export interface ReturnTarget {
  host: string | null;
  scheme: string | null;
  address: string | null;
}

export function returnTarget(redirectUri: string): ReturnTarget {
  const scheme = privateUseScheme(redirectUri);
  if (scheme !== null) {
    const address = redirectUri.split('?')[0];
    return { host: null, scheme: `${scheme}:`, address };
  }
  let host: string;
  try {
    host = new URL(redirectUri).host;
  } catch {
    host = redirectUri;
  }
  return { host, scheme: null, address: null };
}

/** The model of views/hand-back.hbs. */
interface HandBackPage {
  title: string;
  heading: string;
  /** Why the connection is refused, in the person's terms. */
  reason: string;
  clientName: string;
  /**
   * The client's redirect URI with the error response (error, state, iss): the link back;
   * null (no link) for anything but http(s) or an accepted private-use scheme.
   */
  returnUrl: string | null;
  returnsTo: ReturnTarget;
}

/**
 * A refusal the person must see before the app is told (issue 36): the reason, and a link
 * that hands the error response back to the app. A link is a new GET navigation, which the
 * CSP's form-action does not govern, while a redirect in the chain of the sign-in form's
 * post is blocked by its `form-action 'self'` (Chromium applies it to every redirect of that
 * chain). The app's redirect URI is a registered one, matched exactly.
 */
export function handBackPage(v: {
  heading: string;
  reason: string;
  clientName: string;
  returnUrl: string;
  redirectUri: string;
}): HandBackPage {
  return {
    title: v.heading,
    heading: v.heading,
    reason: v.reason,
    clientName: v.clientName,
    returnUrl: handBackHref(v.returnUrl),
    returnsTo: returnTarget(v.redirectUri),
  };
}

/** A link target for the hand-back: http(s), or a native app's private-use scheme; printable ASCII. */
function handBackHref(url: string): string | null {
  if (!/^[\x21-\x7e]+$/.test(url)) return null;
  if (/^https?:\/\//.test(url)) return url;
  return privateUseScheme(url) !== null ? url : null;
}

/** Why an account on a plan without API access cannot connect apps (with its plan's name). */
export function noApiAccessReason(accountName: string, plan: string): string {
  return `Your account ${accountName} is on the ${planTitle(plan)} plan, which has no API access, so no app can be connected to it. Free and Starter plans have no API access; upgrade to Pro or Agency (contact us) to connect apps.`;
}

/** The model of views/authorize-error.hbs. */
interface AuthorizeErrorPage {
  title: string;
  message: string;
}

export function authorizeErrorPage(message: string): AuthorizeErrorPage {
  return { title: 'Connection request refused', message };
}
