import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, ApiError, Clock, recordTimestamp } from '@app/core';
import { AccountsService } from '@app/accounts';
import {
  GOOGLE_CLIENT,
  GoogleClient,
  GscRefreshTokens,
  SCOPE_NOT_GRANTED,
  SearchConsoleError,
  pkcePair,
} from '@app/providers';
import { GscIngestionRepository, type GscConnectionEntity } from '@app/database';
import { propertyView } from '../gsc/gsc.mapper';
import { GscConnectRepository, GscPropertyRecord, StoredSite } from './gsc-connect.repository';
import { GscOAuthStates } from './gsc-oauth-states';

/** The path Google sends the browser back to (registered as the client's redirect URI). */
export const GSC_CALLBACK_PATH = '/account/gsc/callback';
/** The console's Search Console section. */
export const GSC_CONSOLE_SECTION = '/account#search-console';
/** The Google account of sandbox properties. */
const SANDBOX_EMAIL = 'sandbox@example.com';

/** One entry of GET /account/v1/gsc/connections. */
export interface GscConnectionView {
  connection_id: number;
  google_email: string;
  status: string;
  created_at: string;
  sites: Array<{ site_url: string; permission_level: string; property_id: number | null }>;
}

/** A property as the account area shows it: the public row plus connection and backfill. */
export type GscAccountPropertyView = ReturnType<typeof propertyView> & {
  connection_id: number | null;
  permission_level: string | null;
  backfill_days_done: number;
  backfill_days_total: number;
};

/** Why a callback did not connect (the console says it in words). */
export type GscCallbackOutcome =
  | { ok: true; connectionId: number }
  | { ok: false; reason: 'state' | 'denied' | 'scope' | 'google' };

/**
 * Connecting Google Search Console (docs/gsc-connect.md): the authorization request (state
 * bound to the session, PKCE S256), the callback (code exchange, e-mail, sites.list, the
 * connection stored with its refresh token sealed), the account's connections and
 * properties, the `gsc_properties` limit, disconnect (revoked at Google first) and sandbox
 * properties when no Google client is configured.
 */
@Injectable()
export class GscConnectService {
  private readonly logger = new Logger('GscConnect');

  constructor(
    private readonly repo: GscConnectRepository,
    private readonly ingestion: GscIngestionRepository,
    private readonly states: GscOAuthStates,
    private readonly tokens: GscRefreshTokens,
    private readonly accounts: AccountsService,
    private readonly clock: Clock,
    @Inject(GOOGLE_CLIENT) private readonly google: GoogleClient | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether a Google client is configured (else: sandbox properties only). */
  get googleConfigured(): boolean {
    return this.google !== null;
  }

  private get redirectUri(): string {
    return `${this.config.publicBaseUrl}${GSC_CALLBACK_PATH}`;
  }

  /** Google's authorization URL for a new connect of this session (null without Google). */
  async authorizationUrl(sessionId: number, accountId: number): Promise<string | null> {
    if (!this.google) return null;
    const pkce = pkcePair();
    const state = await this.states.create({ sessionId, accountId, verifier: pkce.verifier });
    return this.google.authorizationUrl({
      redirectUri: this.redirectUri,
      state,
      codeChallenge: pkce.challenge,
    });
  }

  /** The callback: checks the state against the session, then connects. */
  async callback(
    session: { sessionId: number; accountId: number },
    q: { state?: string; code?: string; error?: string },
  ): Promise<GscCallbackOutcome> {
    const state = await this.states.take(typeof q.state === 'string' ? q.state : '');
    if (!state || state.sessionId !== session.sessionId || state.accountId !== session.accountId)
      return { ok: false, reason: 'state' };
    if (q.error || typeof q.code !== 'string' || q.code === '' || !this.google)
      return { ok: false, reason: 'denied' };
    try {
      const tokens = await this.google.exchangeCode({
        code: q.code,
        codeVerifier: state.verifier,
        redirectUri: this.redirectUri,
      });
      const email = await this.google.userEmail(tokens.accessToken);
      const sites: StoredSite[] = (await this.google.listSites(tokens.accessToken)).map((s) => ({
        site_url: s.siteUrl,
        permission_level: s.permissionLevel,
      }));
      const connection = await this.repo.saveConnection(
        session.accountId,
        email,
        sites,
        (id) => this.tokens.seal(id, tokens.refreshToken),
        this.clock.now(),
      );
      // A reconnect: the properties waiting for it sync again at once.
      await this.ingestion.resumeConnectionProperties(connection.id, this.clock.now());
      this.logger.log(
        { account_id: session.accountId, connection_id: connection.id, sites: sites.length },
        'Google Search Console connected',
      );
      return { ok: true, connectionId: connection.id };
    } catch (e) {
      if (!(e instanceof SearchConsoleError)) throw e;
      this.logger.warn({ account_id: session.accountId, kind: e.kind }, 'Google connect failed');
      return { ok: false, reason: e.details.reason === SCOPE_NOT_GRANTED ? 'scope' : 'google' };
    }
  }

  async connections(accountId: number): Promise<GscConnectionView[]> {
    const [connections, properties] = await Promise.all([
      this.repo.connections(accountId),
      this.repo.properties(accountId),
    ]);
    return connections.map((c) => connectionView(c, properties));
  }

  async properties(accountId: number): Promise<GscAccountPropertyView[]> {
    return (await this.repo.properties(accountId)).map(accountPropertyView);
  }

  /**
   * Revokes the connection's grant at Google, then deletes it: its properties are paused and
   * keep their data. Google unreachable → 502, nothing changed (try again).
   */
  async disconnect(accountId: number, connectionId: number): Promise<GscConnectionView> {
    const connection = await this.repo.connection(accountId, connectionId);
    if (!connection) throw ApiError.notFound('Connection');
    if (this.google) {
      try {
        await this.google.revoke(this.tokens.open(connection));
      } catch (e) {
        if (!(e instanceof SearchConsoleError)) throw e;
        throw new ApiError(
          'UPSTREAM_ERROR',
          'Google did not answer the revocation; nothing changed. Try again.',
        );
      }
    }
    const properties = await this.repo.properties(accountId);
    await this.repo.deleteConnection(accountId, connectionId, this.clock.now());
    return { ...connectionView(connection, properties), status: 'revoked' };
  }

  /** Adds a site of a connection as a property (starts its sync), under the plan's limit. */
  async addProperty(
    accountId: number,
    body: { connection_id: number; site_url: string },
  ): Promise<GscAccountPropertyView> {
    const connection = await this.repo.connection(accountId, body.connection_id);
    if (!connection) throw ApiError.notFound('Connection');
    if (connection.status !== 'active')
      throw ApiError.validation(
        'connection_id',
        'connection_id must be an active connection: reconnect it first',
      );
    const site = connection.sites.find((s) => s.site_url === body.site_url);
    if (!site)
      throw ApiError.validation('site_url', "site_url must be one of the connection's sites");
    if (site.permission_level === 'siteUnverifiedUser')
      throw ApiError.validation(
        'site_url',
        'site_url is not verified for this Google account, so it has no data to sync',
      );
    return this.add(accountId, {
      propertyUri: site.site_url,
      displayName: site.site_url,
      googleEmail: connection.googleEmail,
      isSandbox: false,
      connectionId: connection.id,
      permissionLevel: site.permission_level,
    });
  }

  /** A sandbox property (synced from generated data); only without a Google client. */
  async addSandboxProperty(accountId: number): Promise<GscAccountPropertyView> {
    if (this.google)
      throw new ApiError(
        'FORBIDDEN',
        'Google is configured on this server: connect a Google account instead.',
      );
    const taken = new Set(await this.repo.sandboxUris(accountId));
    let n = 1;
    while (taken.has(`sc-domain:sandbox-${n}.example`)) n++;
    return this.add(accountId, {
      propertyUri: `sc-domain:sandbox-${n}.example`,
      displayName: `Sandbox property ${n}`,
      googleEmail: SANDBOX_EMAIL,
      isSandbox: true,
      connectionId: null,
      permissionLevel: null,
    });
  }

  async removeProperty(accountId: number, propertyId: number): Promise<GscAccountPropertyView> {
    const removed = await this.repo.deleteProperty(accountId, propertyId);
    if (!removed) throw ApiError.notFound('Property');
    return accountPropertyView(removed);
  }

  private async add(
    accountId: number,
    p: Parameters<GscConnectRepository['addProperty']>[1],
  ): Promise<GscAccountPropertyView> {
    const account = await this.accounts.find(accountId);
    if (!account) throw ApiError.notFound('Account');
    const limit = this.accounts.limitsOf(account).gsc_properties;
    const result = await this.repo.addProperty(accountId, p, limit, this.clock.now());
    if ('used' in result) {
      throw new ApiError(
        'PAYMENT_REQUIRED',
        `Your plan allows ${limit} Search Console properties and ${result.used} are in use. Remove one, or move to a larger plan.`,
        { meta: { limit, used: result.used, requested: 1, limit_name: 'gsc_properties' } },
      );
    }
    return accountPropertyView(result.property);
  }
}

function connectionView(
  c: GscConnectionEntity,
  properties: GscPropertyRecord[],
): GscConnectionView {
  return {
    connection_id: c.id,
    google_email: c.googleEmail,
    status: c.status,
    created_at: recordTimestamp(c.createdAt)!,
    sites: c.sites.map((s) => ({
      site_url: s.site_url,
      permission_level: s.permission_level,
      property_id:
        properties.find((p) => p.connectionId === c.id && p.propertyUri === s.site_url)?.id ?? null,
    })),
  };
}

function accountPropertyView(p: GscPropertyRecord): GscAccountPropertyView {
  return {
    ...propertyView(p),
    connection_id: p.connectionId,
    permission_level: p.permissionLevel,
    backfill_days_done: p.backfillDaysDone,
    backfill_days_total: p.backfillDaysTotal,
  };
}
