import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadHtmlparser2 } from '@app/crawler';
import { CONSOLE_PAGE, SIGN_IN_PAGE, consolePage, signInPage } from '../account-area/account-pages';
import {
  AUTHORIZE_ERROR_PAGE,
  CONSENT_PAGE,
  HAND_BACK_PAGE,
  authorizeErrorPage,
  consentPage,
  handBackPage,
} from '../oauth/oauth-pages';
import { auditReport } from '../site-audit/report.fixture';
import {
  REPORT_NOT_FOUND_PAGE,
  REPORT_PAGE,
  reportNotFoundPage,
  reportPage,
} from '../site-audit/report.view';
import { HOME_PAGE, homePage } from '../home/home.view';
import { MESSAGE_PAGE } from './message.view';
import { API_SRC_DIR, PageAssets } from './page-assets';
import { PageViews, templateFiles } from './page-views';

/**
 * Every page template, rendered with hostile values wherever a value can come from outside
 * (labels, names, emails, client metadata, crawled URLs and text), must stay inert: no script
 * but the page's own asset, no event-handler attribute, no inline style, no link or form
 * target that is not this site or an http(s) URL, and the hostile text shown as text.
 */
const H = `"><script>window.pwned=1</script><img src=x onerror="alert(1)">'javascript:alert(1)`;
const JS_URL = 'javascript:alert(document.domain)';

const when = new Date('2026-11-21T10:00:00Z');

const hostileReport = () =>
  auditReport(
    {
      startUrl: JS_URL,
      domain: H,
      ruleSummary: [{ rule: H, severity: H, title: H, count: 1, urls: [JS_URL, H] }],
      geoChecks: [{ check: H, passed: false, weight: 10, detail: H }],
      truncated: true,
    },
    {
      url: `http://127.0.0.1:8080/?q=${H}`,
      finalUrl: JS_URL,
      title: H,
      metaDescription: H,
      canonical: `data:text/html,${H}`,
      issues: [{ rule: H, severity: H, url: JS_URL, detail: H }],
    },
  );

/** A hostile model for every page template; a new template without one fails the test. */
const MODELS: Record<string, object> = {
  [SIGN_IN_PAGE]: signInPage({
    csrfToken: H,
    email: H,
    returnTo: H,
    error: H,
    notice: H,
    // The app asking to connect names itself when it registers.
    connectingApp: { name: H, identityUrl: JS_URL },
  }),
  [CONSOLE_PAGE]: consolePage({
    googleConfigured: true,
    csrfToken: H,
    email: H,
    accountName: H,
    plan: H,
    apiAccess: true,
    callsUsed: 3,
    callsLimit: 20,
    resetsAt: when,
    quotas: [{ name: H, used: 1, limit: 2 }],
    credits: 5,
    keys: [
      { id: 1, label: H, prefix: H, createdAt: when, lastUsedAt: null, revokedAt: null },
      { id: 2, label: JS_URL, prefix: H, createdAt: when, lastUsedAt: when, revokedAt: when },
    ],
    keyCallsThisMonth: new Map([[1, 7]]),
    days: [
      { date: '2026-11-20', calls: 3, research: 1, your_data: 1, other: 1 },
      { date: '2026-11-21', calls: 0, research: 0, your_data: 0, other: 0 },
    ],
    endpoints: [{ endpoint: H, calls: 3 }],
    alerts: {
      webhookUrl: JS_URL,
      thresholds: [80, 100],
      lastFired: [{ threshold: 80, month: H, fired_at: H }],
    },
  }),
  [MESSAGE_PAGE]: { title: H, message: H, link: '/account', linkText: H },
  [CONSENT_PAGE]: consentPage({
    csrfToken: H,
    email: H,
    accountName: H,
    plan: H,
    clientName: H,
    clientId: JS_URL,
    clientVerifiedByUrl: true,
    redirectUri: H,
    scopes: [H, 'seo:read'],
    request: {
      client_id: H,
      redirect_uri: JS_URL,
      state: H,
      code_challenge: H,
      code_challenge_method: 'S256',
      scope: H,
      resource: H,
    },
  }),
  [AUTHORIZE_ERROR_PAGE]: authorizeErrorPage(H),
  // The refusal page's link hands back to the app's redirect URI (only http(s) or a native
  // app's private-use scheme becomes a link).
  [HAND_BACK_PAGE]: handBackPage({
    heading: H,
    reason: H,
    clientName: H,
    redirectUri: H,
    returnUrl: JS_URL,
  }),
  [REPORT_PAGE]: reportPage(hostileReport()),
  [REPORT_NOT_FOUND_PAGE]: reportNotFoundPage(),
  // No outside values on the home page; its model still goes through the same checks.
  [HOME_PAGE]: homePage({ postgres: 'down', redis: 'ok' }),
};

interface Found {
  scripts: string[];
  problems: string[];
  text: string;
}

const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'srcset', 'poster']);

/** This site's path, or an http(s) URL. */
const safeTarget = (v: string): boolean =>
  /^#[a-z-]*$/.test(v) || (v.startsWith('/') && !v.startsWith('//')) || /^https?:\/\//i.test(v);

const { Parser } = loadHtmlparser2();

function inspect(html: string): Found {
  const found: Found = { scripts: [], problems: [], text: '' };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'script') {
          if (!attrs.src) found.problems.push('inline <script>');
          else found.scripts.push(attrs.src);
        }
        if (['img', 'iframe', 'object', 'embed', 'style', 'base', 'meta'].includes(name)) {
          if (name !== 'meta' || attrs['http-equiv']) found.problems.push(`<${name}>`);
        }
        for (const [attr, value] of Object.entries(attrs)) {
          if (attr.startsWith('on')) found.problems.push(`${name}[${attr}]`);
          if (attr === 'style') found.problems.push(`${name}[style]`);
          if (URL_ATTRIBUTES.has(attr) && !safeTarget(value)) {
            found.problems.push(`${name}[${attr}=${value}]`);
          }
        }
      },
      ontext(text) {
        found.text += text;
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return found;
}

describe('every page is inert with hostile values', () => {
  const views = new PageViews(new PageAssets());

  it('has a hostile model for every page template', () => {
    expect(views.names().sort()).toEqual(Object.keys(MODELS).sort());
  });

  it.each(Object.keys(MODELS))('%s', (name) => {
    const html = views.render(name, MODELS[name]);
    const found = inspect(html);
    expect(found.problems).toEqual([]);
    // Only the page's own scripts, from /assets.
    for (const src of found.scripts) expect(src).toMatch(/^\/assets\/[a-z-]+\.[0-9a-f]{12}\.js$/);
    // The hostile value is there, as text (escaped in the HTML).
    if (name !== REPORT_NOT_FOUND_PAGE && name !== HOME_PAGE) {
      expect(found.text).toContain('<script>window.pwned=1</script>');
      expect(html).not.toContain('<script>window.pwned');
    }
  });

  it('no template writes raw output ({{{ }}}) and no code builds HTML past the escaping', () => {
    for (const file of templateFiles()) {
      const source = readFileSync(join(API_SRC_DIR, file), 'utf8');
      expect({ file, raw: source.includes('{{{') || source.includes('{{&') }).toEqual({
        file,
        raw: false,
      });
    }
    const kit = readFileSync(join(__dirname, 'page-views.ts'), 'utf8');
    expect(kit).not.toMatch(/SafeString|noEscape/);
  });
});
