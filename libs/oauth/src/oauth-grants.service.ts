import { Inject, Injectable } from '@nestjs/common';
import { Clock, recordTimestamp } from '@app/core';
import { hasApiAccess, resolveLimits } from '@app/plans';
import type { AuthContext } from '@app/accounts';
import {
  InvalidGrantError,
  InvalidScopeError,
  InvalidTargetError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { ConnectionRow, OAuthGrantsRepository } from './oauth-grants.repository';
import type { OAuthClient } from './oauth-clients.service';
import { hashOpaqueSecret, looksLikeOpaqueSecret, newOpaqueSecret } from './oauth-secrets';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  CODE_TTL_SECONDS,
  OAUTH_SETTINGS,
  OAuthSettings,
  REFRESH_TOKEN_TTL_SECONDS,
} from './oauth-settings';

/** A connected app as the account area lists it. */
export interface ConnectionView {
  id: number;
  client_name: string;
  client_id: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
}

/** The caller behind a valid access token. */
interface OAuthCaller {
  auth: AuthContext;
  grantId: number;
  clientId: string;
  scopes: string[];
}

/** Marker for `AuthContext.keyId` of calls made with an OAuth token (no API key behind them). */
const OAUTH_KEY_ID = 0;

/**
 * Grants and their codes and tokens: issuing a code on approval, the code and refresh
 * exchanges (single-use codes, rotating refresh tokens, reuse revokes the grant),
 * revocation, the access-token check (in PostgreSQL on every call, so a revocation holds
 * at once on every instance), and the account area's connections.
 */
@Injectable()
export class OAuthGrantsService {
  constructor(
    private readonly grants: OAuthGrantsRepository,
    private readonly clock: Clock,
    @Inject(OAUTH_SETTINGS) private readonly settings: OAuthSettings,
  ) {}

  /** The scopes of a request: all we offer when none are named; InvalidScopeError for unknown ones. */
  resolveScopes(requested: string[] | undefined): string[] {
    const named = (requested ?? []).filter((s) => s !== '');
    if (named.length === 0) return [...this.settings.scopes];
    const unknown = named.filter((s) => !this.settings.scopes.includes(s));
    if (unknown.length > 0)
      throw new InvalidScopeError(`Unknown scope: ${unknown.join(' ').slice(0, 100)}.`);
    return [...new Set(named)];
  }

  /** InvalidTargetError unless `resource` (when sent) is our one resource. */
  checkResource(resource: URL | string | undefined): void {
    if (resource === undefined) return;
    const value = typeof resource === 'string' ? resource : resource.href;
    if (!sameResource(value, this.settings.resource)) {
      throw new InvalidTargetError(`resource must be ${this.settings.resource}.`);
    }
  }

  /** Whether the account's plan allows API access (and so a connection). */
  planAllows(plan: Parameters<typeof hasApiAccess>[0]): boolean {
    return hasApiAccess(plan);
  }

  /** A new grant for an approval and its authorization code (returned once, stored hashed). */
  async approve(input: {
    userId: number;
    accountId: number;
    client: OAuthClient;
    scopes: string[];
    codeChallenge: string;
    redirectUri: string;
  }): Promise<string> {
    const now = this.clock.now();
    const code = newOpaqueSecret();
    await this.grants.createGrantWithCode(
      {
        userId: input.userId,
        accountId: input.accountId,
        clientPk: input.client.pk,
        scopes: input.scopes,
        resource: this.settings.resource,
      },
      {
        hash: hashOpaqueSecret(code),
        challenge: input.codeChallenge,
        redirectUri: input.redirectUri,
        expiresAt: new Date(now.getTime() + CODE_TTL_SECONDS * 1000),
      },
      now,
    );
    return code;
  }

  /** The PKCE challenge of a code of this client (used or not: reuse is caught at the exchange). */
  async challengeFor(client: OAuthClient, code: string): Promise<string> {
    const row = looksLikeOpaqueSecret(code)
      ? await this.grants.findCode(hashOpaqueSecret(code))
      : undefined;
    if (!row || row.client_id !== client.client_id) throw invalidCode();
    return row.code_challenge;
  }

  /**
   * Exchanges a code (its PKCE verifier already checked): once, within 60 seconds, with the
   * same redirect_uri. A second use revokes the grant, and so what the first use issued.
   */
  async exchangeCode(
    client: OAuthClient,
    code: string,
    redirectUri: string | undefined,
    resource: URL | undefined,
  ): Promise<OAuthTokens> {
    this.checkResource(resource);
    const now = this.clock.now();
    const row = looksLikeOpaqueSecret(code)
      ? await this.grants.findCode(hashOpaqueSecret(code))
      : undefined;
    if (!row || row.client_id !== client.client_id) throw invalidCode();
    if (row.used_at || !(await this.grants.useCode(row.id, now))) {
      await this.grants.revokeGrant(row.grant_id, now);
      throw new InvalidGrantError(
        'The authorization code was already used; its tokens are revoked.',
      );
    }
    if (row.grant_revoked_at) throw invalidCode();
    if (row.expires_at.getTime() <= now.getTime()) {
      await this.grants.revokeGrant(row.grant_id, now);
      throw new InvalidGrantError('The authorization code has expired.');
    }
    if (redirectUri !== undefined && redirectUri !== row.redirect_uri) {
      await this.grants.revokeGrant(row.grant_id, now);
      throw new InvalidGrantError(
        'redirect_uri differs from the one of the authorization request.',
      );
    }
    return this.issue(row.grant_id, now, row.scopes);
  }

  /** Rotates a refresh token; presenting a used (or revoked) one revokes the whole grant. */
  async refresh(
    client: OAuthClient,
    refreshToken: string,
    scopes: string[] | undefined,
    resource: URL | undefined,
  ): Promise<OAuthTokens> {
    this.checkResource(resource);
    const now = this.clock.now();
    const row = looksLikeOpaqueSecret(refreshToken)
      ? await this.grants.findToken(hashOpaqueSecret(refreshToken))
      : undefined;
    // Everything is checked before the token is spent: a refused request leaves it usable.
    if (!row || row.kind !== 'refresh' || row.client_id !== client.client_id) {
      throw new InvalidGrantError('Unknown refresh token.');
    }
    if (row.grant_revoked_at) throw new InvalidGrantError('The grant is revoked.');
    if (row.used_at || row.revoked_at) return this.reused(row.grant_id, now);
    if (row.expires_at.getTime() <= now.getTime()) {
      throw new InvalidGrantError('The refresh token has expired.');
    }
    if (!hasApiAccess(row.plan)) {
      throw new InvalidGrantError('The account no longer has API access.');
    }
    // A refresh may not widen the grant. Tokens carry the grant's scopes (they are checked
    // from the grant on every call), so a narrower request still gets all of them, and the
    // answer's `scope` says so (RFC 6749 §5.1): never a `scope` the token does not have.
    const asked = (scopes ?? []).filter((s) => s !== '');
    if (asked.some((s) => !row.scopes.includes(s))) {
      throw new InvalidScopeError('The requested scope exceeds what the grant allows.');
    }
    // Spent last, together with the new pair (one statement): a concurrent use loses here.
    const pair = newTokenPair(now);
    if (!(await this.grants.rotateRefresh(row.id, pair.access, pair.refresh, now))) {
      return this.reused(row.grant_id, now);
    }
    return pair.answer(row.scopes);
  }

  /** Reuse of a spent refresh token: the whole grant is revoked (OAuth 2.1 §4.3.1). */
  private async reused(grantId: number, now: Date): Promise<never> {
    await this.grants.revokeGrant(grantId, now);
    throw new InvalidGrantError('The refresh token was already used; the grant is revoked.');
  }

  /**
   * A plan without API access ends the account's grants (docs/oauth.md, "A downgrade ends
   * the grants"): their tokens stop at once on every instance (each access-token check reads
   * PostgreSQL) and do not come back with an upgrade. Returns how many grants ended.
   */
  async endAccountGrants(accountId: number): Promise<number> {
    return this.grants.revokeAccountGrants(accountId, this.clock.now());
  }

  /** RFC 7009: revokes a token of this client (a refresh token: its whole grant); unknown tokens are ignored. */
  async revoke(client: OAuthClient, token: string): Promise<void> {
    if (!looksLikeOpaqueSecret(token)) return;
    const row = await this.grants.findToken(hashOpaqueSecret(token));
    if (!row || row.client_id !== client.client_id) return;
    const now = this.clock.now();
    if (row.kind === 'refresh') await this.grants.revokeGrant(row.grant_id, now);
    else await this.grants.revokeToken(row.id, now);
  }

  /**
   * The caller behind an access token: unexpired, unrevoked, grant unrevoked, audience our
   * resource; limits from the account's CURRENT plan. Touches the grant's last_used_at (at
   * most once a minute). Null otherwise.
   */
  async authenticate(token: string): Promise<OAuthCaller | null> {
    if (!looksLikeOpaqueSecret(token)) return null;
    const now = this.clock.now();
    const row = await this.grants.findAccess(hashOpaqueSecret(token), now);
    if (!row || !sameResource(row.resource, this.settings.resource)) return null;
    if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= 60_000) {
      await this.grants.touchGrant(row.grant_id, now);
    }
    return {
      auth: {
        keyId: OAUTH_KEY_ID,
        keyLabel: row.client_name,
        accountId: row.account_id,
        plan: row.plan,
        limits: resolveLimits(row.plan, row.overrides),
        grantId: row.grant_id,
      },
      grantId: row.grant_id,
      clientId: row.client_id,
      scopes: row.scopes,
    };
  }

  /** The account's connected apps (active grants), newest first. */
  async connections(accountId: number): Promise<ConnectionView[]> {
    return (await this.grants.listActive(accountId)).map(toView);
  }

  /** Revokes a connection of the account (its tokens stop at once); null when not the account's or already revoked. */
  async revokeConnection(accountId: number, id: number): Promise<ConnectionView | null> {
    const row = await this.grants.findConnection(id, accountId);
    if (!row) return null;
    await this.grants.revokeGrant(id, this.clock.now(), accountId);
    return toView(row);
  }

  private async issue(grantId: number, now: Date, scopes: string[]): Promise<OAuthTokens> {
    const pair = newTokenPair(now);
    await this.grants.insertTokenPair(grantId, pair.access, pair.refresh, now);
    return pair.answer(scopes);
  }
}

/** A new access and refresh token: what is stored (hashes) and the token answer. */
function newTokenPair(now: Date) {
  const access = newOpaqueSecret();
  const refresh = newOpaqueSecret();
  return {
    access: {
      hash: hashOpaqueSecret(access),
      expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000),
    },
    refresh: {
      hash: hashOpaqueSecret(refresh),
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    },
    answer: (scopes: string[]): OAuthTokens => ({
      access_token: access,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      refresh_token: refresh,
      scope: scopes.join(' '),
    }),
  };
}

function invalidCode(): InvalidGrantError {
  return new InvalidGrantError('Unknown or expired authorization code.');
}

/** Resource indicators compared as URLs, ignoring one trailing slash. */
function sameResource(a: string, b: string): boolean {
  const norm = (v: string) => {
    try {
      return new URL(v).href.replace(/\/$/, '');
    } catch {
      return null;
    }
  };
  const x = norm(a);
  return x !== null && x === norm(b);
}

function toView(row: ConnectionRow): ConnectionView {
  return {
    id: row.id,
    client_name: row.client_name,
    client_id: row.client_id,
    scopes: row.scopes,
    created_at: recordTimestamp(row.created_at),
    last_used_at: recordTimestamp(row.last_used_at),
  };
}
