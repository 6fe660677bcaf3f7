import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig, parsePlainDate, Clock } from '@app/core';
import { AccountsService, ApiKeysService, SessionContext, SessionsService } from '@app/accounts';
import { Public } from '@app/gateway';
import { UsageHistoryService } from '@app/billing';
import { UsageService } from '../usage/usage.service';
import { UsageAlertsService } from '../usage/usage-alerts.service';
import { GscConnectService } from '../gsc-connect/gsc-connect.service';
import { CONSOLE_PAGE, CONSOLE_PATH, ConsoleQuota, consolePage } from './account-pages';
import { SIGN_IN_PATH } from '../session/session-pages';
import { clearSessionCookie, isSecureBase, readSessionToken } from '../session/session-cookie';
import { CSRF_FIELD, sessionCsrfToken, tokensMatch } from '../pages/csrf';
import { MESSAGE_PAGE, MessagePage } from '../pages/message.view';
import { pageHeaders, readForm, redirectPage, renderPage } from '../pages/page-response';

/** The days of the console's usage chart. */
const CONSOLE_CHART_DAYS = 30;

const QUOTA_NAMES: Array<[string, string]> = [
  ['keyword_research_per_month', 'Keyword research lookups'],
  ['backlinks_per_month', 'Backlinks fetches'],
  ['site_audit_crawls_per_month', 'Site-audit crawls'],
  ['site_audit_rolling_page_budget', 'Site-audit pages (last 30 days)'],
  ['tracked_keywords', 'Tracked keywords'],
  ['ai_visibility_projects', 'AI-visibility projects'],
  ['ai_visibility_prompts_per_project', 'Prompts per AI-visibility project (largest)'],
  ['gsc_properties', 'Search Console properties'],
];

/**
 * The account pages of a signed-in person: GET /account (the console), POST
 * /account/sign-out (their stylesheet and script are served under /assets; the sign-in page
 * is AccountSignInController). Outside the API-key pipeline; cross-site POSTs are refused by
 * the global SameOriginGuard before these handlers run, and the sign-out form carries a CSRF
 * token derived from the session, checked here.
 */
@ApiExcludeController()
@Public()
@Controller('account')
export class AccountPagesController {
  private readonly secure: boolean;

  constructor(
    private readonly sessions: SessionsService,
    private readonly keys: ApiKeysService,
    private readonly accounts: AccountsService,
    private readonly usage: UsageService,
    private readonly history: UsageHistoryService,
    private readonly alerts: UsageAlertsService,
    private readonly clock: Clock,
    private readonly gsc: GscConnectService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secure = isSecureBase(config.publicBaseUrl);
  }

  @Get()
  async console(@Req() req: Request, @Res() res: Response): Promise<void> {
    const signedIn = await this.currentSession(req);
    if (!signedIn) {
      redirectPage(res, SIGN_IN_PATH);
      return;
    }
    const { session, token } = signedIn;
    const { account, usage, ...figures } = await this.consoleData(session.accountId);
    if (!account || !usage) {
      // The account is gone: the session is worthless.
      await this.sessions.end(token);
      clearSessionCookie(res, this.secure);
      redirectPage(res, SIGN_IN_PATH);
      return;
    }
    const view = consoleView(usage.record, figures, {
      csrfToken: sessionCsrfToken(token),
      googleConfigured: this.gsc.googleConfigured,
      email: session.email,
      accountName: account.name,
    });
    pageHeaders(res);
    await renderPage(res, 200, CONSOLE_PAGE, consolePage(view));
  }

  /** Everything the console shows, read at once. */
  private async consoleData(accountId: number) {
    const [account, usage, keys, history, keyCalls, alerts] = await Promise.all([
      this.accounts.find(accountId),
      this.usage.ofAccount(accountId),
      this.keys.list(accountId, true),
      this.history.history(accountId, CONSOLE_CHART_DAYS),
      this.history.callsPerKeyThisMonth(accountId),
      this.alerts.view(accountId),
    ]);
    return { account, usage, keys, history, keyCalls, alerts };
  }

  @Post('sign-out')
  async signOut(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = (await readForm(req)) ?? new URLSearchParams();
    const token = readSessionToken(req);
    const session = token ? await this.sessions.resolve(token) : null;
    if (!token || !session) {
      clearSessionCookie(res, this.secure);
      redirectPage(res, `${SIGN_IN_PATH}?signed_out=1`);
      return;
    }
    if (!tokensMatch(form.get(CSRF_FIELD), sessionCsrfToken(token))) {
      const page: MessagePage = {
        title: 'Not signed out',
        message: 'This sign-out form expired or was not sent from this site, so nothing changed.',
        link: CONSOLE_PATH,
        linkText: 'Back to your account',
      };
      pageHeaders(res);
      await renderPage(res, 403, MESSAGE_PAGE, page);
      return;
    }
    await this.sessions.end(token);
    clearSessionCookie(res, this.secure);
    redirectPage(res, `${SIGN_IN_PATH}?signed_out=1`);
  }

  // -------------------------------------------------------------------------------------

  private async currentSession(
    req: Request,
  ): Promise<{ session: SessionContext; token: string } | null> {
    const token = readSessionToken(req);
    if (!token) return null;
    const session = await this.sessions.resolve(token);
    return session ? { session, token } : null;
  }
}

type ConsoleView = Parameters<typeof consolePage>[0];
type ConsoleData = Omit<
  Awaited<ReturnType<AccountPagesController['consoleData']>>,
  'account' | 'usage'
>;
type AccountUsage = NonNullable<Awaited<ReturnType<UsageService['ofAccount']>>>['record'];

/** The console's model from the account's usage record and figures (dates, names kept). */
function consoleView(
  record: AccountUsage,
  { keys, history, keyCalls, alerts }: ConsoleData,
  person: Pick<ConsoleView, 'csrfToken' | 'googleConfigured' | 'email' | 'accountName'>,
): ConsoleView {
  return {
    ...person,
    plan: record.plan,
    apiAccess: record.api_access,
    callsUsed: record.api_calls_used,
    callsLimit: record.unlimited ? null : record.api_calls_limit,
    resetsAt: parsePlainDate(record.resets_at)!,
    quotas: consoleQuotas(record),
    credits: record.credits,
    keys: keys.map((k) => ({
      id: k.id,
      label: k.label,
      prefix: k.prefix,
      createdAt: k.createdAt,
      lastUsedAt: k.lastUsedAt,
      revokedAt: k.revokedAt,
    })),
    keyCallsThisMonth: keyCalls,
    days: history.days,
    endpoints: history.endpoints,
    alerts: {
      webhookUrl: alerts.webhook_url,
      thresholds: alerts.thresholds,
      lastFired: alerts.last_fired,
    },
  };
}

/** The plan's quotas the console lists, in QUOTA_NAMES order (0 of 0 when the plan has none). */
function consoleQuotas(record: AccountUsage): ConsoleQuota[] {
  return QUOTA_NAMES.map(([member, name]) => {
    const figure = (record.quotas as Record<string, { used: number; limit: number }>)[member];
    return { name, used: figure?.used ?? 0, limit: figure?.limit ?? 0 };
  });
}
