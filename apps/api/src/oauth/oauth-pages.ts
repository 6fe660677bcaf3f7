import type { OAuthClient } from '@app/oauth';
import { ConnectingApp, planTitle } from '../account-area/account-pages';

/**
 * The OAuth pages' view models: the consent page (views/consent.hbs), the page for an
 * authorization request that cannot be sent back to the app (views/authorize-error.hbs), and
 * what the sign-in page shows of the app asking (account-area/views/sign-in.hbs).
 */

/** The authorization endpoint: the sign-in form returns to it when the person was signed out. */
const AUTHORIZE_PATH = '/oauth/authorize';
export const CONSENT_PAGE = 'oauth/views/consent';
export const AUTHORIZE_ERROR_PAGE = 'oauth/views/authorize-error';

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
  redirectHost: string;
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
  redirectHost: string;
  scopes: Array<{ name: string; text: string }>;
  /** The request's parameters, carried back as hidden inputs. */
  hidden: Array<{ name: string; value: string }>;
}

const SCOPE_TEXT: Record<string, string> = {
  'seo:read':
    'Use the SEO data tools for your account: backlinks, keyword research, site audits, rank tracking, Search Console and AI-visibility data.',
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
    redirectHost: v.redirectHost,
    scopes: v.scopes.map((s) => ({ name: s, text: SCOPE_TEXT[s] ?? s })),
    hidden: Object.entries(v.request)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([name, value]) => ({ name, value })),
  };
}

/** The model of views/authorize-error.hbs. */
interface AuthorizeErrorPage {
  title: string;
  message: string;
}

export function authorizeErrorPage(message: string): AuthorizeErrorPage {
  return { title: 'Connection request refused', message };
}

/**
 * The client_id of the authorization request a sign-in's return_to path (already checked by
 * safeReturnTo) resumes: '' when the request names none, null when the path is not the
 * authorization endpoint.
 */
export function authorizationClientId(returnTo: string | null | undefined): string | null {
  if (!returnTo) return null;
  const url = new URL(returnTo, 'http://return-to.invalid');
  if (url.pathname.replace(/\/+$/, '').toLowerCase() !== AUTHORIZE_PATH) return null;
  return url.searchParams.get('client_id') ?? '';
}

/**
 * The app as the sign-in page names it: the registered client's name (none for a client we
 * do not know, or a blank name), and its URL when the client is known by its metadata
 * document (as on the consent page).
 */
export function connectingApp(client: OAuthClient | undefined): ConnectingApp {
  return {
    name: client?.client_name?.trim() || null,
    identityUrl: client?.client_id.startsWith('https://') ? client.client_id : null,
  };
}
