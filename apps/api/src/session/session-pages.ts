import type { OAuthClient } from '@app/oauth';

/**
 * What the account area and the OAuth authorization server both show of the person in the
 * browser: the sign-in page's path (where a signed-out person is sent), the plan's title,
 * and the app asking to connect when a sign-in resumes an authorization request. Its own
 * folder, so that neither of the two imports the other (the session cookie is beside it).
 */

export const SIGN_IN_PATH = '/account/sign-in';

/** The authorization endpoint: the sign-in form returns to it when the person was signed out. */
const AUTHORIZE_PATH = '/oauth/authorize';

const PLAN_TITLES: Record<string, string> = {
  free: 'Free',
  starter: 'Starter',
  pro: 'Pro',
  agency: 'Agency',
};

export const planTitle = (plan: string): string => PLAN_TITLES[plan] ?? plan;

/**
 * The app asking to connect, when the sign-in resumes an OAuth authorization request (its
 * return_to is /oauth/authorize). Its name comes from outside (the app registered it).
 */
export interface ConnectingApp {
  /** The registered client's name; null when the request names no client we know. */
  name: string | null;
  /** The client's metadata-document URL when that URL is its identity, else null. */
  identityUrl: string | null;
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
