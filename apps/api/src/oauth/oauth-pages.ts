import { CSRF_FIELD, esc, layout, planTitle } from '../account-area/account-pages';

/** Where the consent form posts. */
export const CONSENT_PATH = '/oauth/authorize/decision';

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

const SCOPE_TEXT: Record<string, string> = {
  'seo:read':
    'Use the SEO data tools for your account: backlinks, keyword research, site audits, rank tracking, Search Console and AI-visibility data.',
};

/** The consent page: who asks, where it returns to, what it may do; approve or deny. */
export function renderConsent(v: ConsentView): string {
  const hidden = Object.entries(v.request)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`)
    .join('\n');
  const scopes = v.scopes
    .map((s) => `<li><strong>${esc(s)}</strong>: ${esc(SCOPE_TEXT[s] ?? s)}</li>`)
    .join('\n');
  const identity = v.clientVerifiedByUrl
    ? `Its identity is published at <code>${esc(v.clientId)}</code>.`
    : 'The name was given by the app itself when it registered: connect only apps you started yourself.';
  const body = `<header class="top"><span class="brand">SEO data API</span></header>
<main id="main" class="narrow">
<h1>Connect ${esc(v.clientName)}?</h1>
<div class="card stack">
<p><strong>${esc(v.clientName)}</strong> wants to use your account <strong>${esc(v.accountName)}</strong> (${esc(planTitle(v.plan))} plan), signed in as ${esc(v.email)}.</p>
<p class="hint">${identity} After you decide, you return to <strong>${esc(v.redirectHost)}</strong>.</p>
<h2>It will be able to</h2>
<ul class="scopes">
${scopes}
</ul>
<p class="hint">Its tool calls count against your plan exactly like API calls (monthly calls, quotas, credits). It never sees your password or your API keys. You can disconnect it at any time under “Connected apps” in your account.</p>
<form method="post" action="${CONSENT_PATH}" class="stack">
<input type="hidden" name="${CSRF_FIELD}" value="${esc(v.csrfToken)}">
${hidden}
<div class="copy-row">
<button type="submit" name="decision" value="approve" class="primary">Allow access</button>
<button type="submit" name="decision" value="deny">Deny</button>
</div>
</form>
</div>
</main>`;
  return layout(`Connect ${v.clientName}`, body, false);
}

/** An authorization request we cannot send back to the app (unknown client, unregistered redirect URI). */
export function renderAuthorizeError(message: string): string {
  const body = `<header class="top"><span class="brand">SEO data API</span></header>
<main id="main" class="narrow">
<h1>This connection request cannot be used</h1>
<p class="alert alert-error" role="alert">${esc(message)}</p>
<p class="hint">Nothing was shared. Start the connection again from the app; if this keeps happening, the app is misconfigured.</p>
<p><a href="/account">Go to your account</a></p>
</main>`;
  return layout('Connection request refused', body, false);
}
