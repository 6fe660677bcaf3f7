import { GoogleClient } from './google.client';
import { GscRefreshTokens } from './gsc-refresh-tokens';
import {
  SearchConsoleAccess,
  SearchConsoleError,
  SearchConsolePage,
  SearchConsoleSource,
} from './search-console.port';

/**
 * The sync's SearchConsoleSource over Google (bound to SEARCH_CONSOLE_SOURCE when
 * GOOGLE_CLIENT_ID is set): `accessFor` opens the connection's sealed refresh token and
 * asks the client for an access token (cached until it expires); `query` pulls one page of a
 * day. An access token Google refuses (401) is refreshed once and the page asked again; a
 * second refusal is `reauth_required`.
 */
export class GoogleSearchConsoleSource implements SearchConsoleSource {
  /** The last connection each access was made for, to refresh it after a 401. */
  private readonly connections = new Map<number, { id: number; refreshTokenEnc: string }>();

  constructor(
    private readonly google: GoogleClient,
    private readonly tokens: GscRefreshTokens,
  ) {}

  async accessFor(connection: {
    id: number;
    refreshTokenEnc: string;
  }): Promise<SearchConsoleAccess> {
    const refreshToken = this.tokens.open(connection);
    const accessToken = await this.google.accessToken(refreshToken);
    this.connections.set(connection.id, {
      id: connection.id,
      refreshTokenEnc: connection.refreshTokenEnc,
    });
    return { connectionId: connection.id, accessToken };
  }

  async query(
    access: SearchConsoleAccess,
    siteUrl: string,
    day: string,
    startRow: number,
    rowLimit: number,
  ): Promise<SearchConsolePage> {
    try {
      return {
        rows: await this.google.queryDay(access.accessToken, siteUrl, day, startRow, rowLimit),
      };
    } catch (e) {
      const connection =
        access.connectionId === null ? undefined : this.connections.get(access.connectionId);
      if (!(e instanceof SearchConsoleError) || e.details.status !== 401 || !connection) throw e;
      this.google.forget(this.tokens.open(connection));
      const fresh = await this.accessFor(connection);
      try {
        return {
          rows: await this.google.queryDay(fresh.accessToken, siteUrl, day, startRow, rowLimit),
        };
      } catch (again) {
        if (again instanceof SearchConsoleError && again.details.status === 401) {
          throw new SearchConsoleError(
            'reauth_required',
            'query: access token refused after a refresh',
            again.details,
          );
        }
        throw again;
      }
    }
  }
}
