import { planTitle } from '../account-area/account-pages';

/**
 * The OAuth pages' view models: the consent page (views/consent.hbs) and the page for an
 * authorization request that cannot be sent back to the app (views/authorize-error.hbs).
 */

/** Where the consent form posts. */
export const CONSENT_PATH = '/oauth/authorize/decision';
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

export interface ConsentView {
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
export interface ConsentPage {
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
export interface AuthorizeErrorPage {
  title: string;
  message: string;
}

export function authorizeErrorPage(message: string): AuthorizeErrorPage {
  return { title: 'Connection request refused', message };
}
