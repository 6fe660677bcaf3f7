import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/core';
import { GoogleClient } from './google.client';
import { GoogleSearchConsoleSource } from './google-search-console.source';
import { GscRefreshTokens } from './gsc-refresh-tokens';
import { SEARCH_CONSOLE_SOURCE } from './search-console.port';

/** DI token of the GoogleClient; null without GOOGLE_CLIENT_ID (sandbox properties only). */
export const GOOGLE_CLIENT = Symbol('GOOGLE_CLIENT');

/** The Google client of AppConfig.google, or null without a client id. */
export function createGoogleClient(config: AppConfig): GoogleClient | null {
  const g = config.google;
  if (!g.clientId || !g.clientSecret) return null;
  return new GoogleClient({
    clientId: g.clientId,
    clientSecret: g.clientSecret,
    authorizeUrl: g.authorizeUrl,
    tokenUrl: g.tokenUrl,
    revokeUrl: g.revokeUrl,
    userinfoUrl: g.userinfoUrl,
    searchConsoleUrl: g.searchConsoleUrl,
    timeoutMs: g.timeoutMs,
  });
}

/**
 * Google for Search Console (docs/gsc-connect.md): GOOGLE_CLIENT (the connect flow of the
 * API), SEARCH_CONSOLE_SOURCE (the sync of the worker) — both null without GOOGLE_CLIENT_ID
 * — and GscRefreshTokens (the sealed refresh tokens).
 */
@Module({
  providers: [
    { provide: GOOGLE_CLIENT, inject: [APP_CONFIG], useFactory: createGoogleClient },
    { provide: GscRefreshTokens, inject: [APP_CONFIG], useFactory: GscRefreshTokens.fromConfig },
    {
      provide: SEARCH_CONSOLE_SOURCE,
      inject: [GOOGLE_CLIENT, GscRefreshTokens],
      useFactory: (google: GoogleClient | null, tokens: GscRefreshTokens) =>
        google ? new GoogleSearchConsoleSource(google, tokens) : null,
    },
  ],
  exports: [GOOGLE_CLIENT, GscRefreshTokens, SEARCH_CONSOLE_SOURCE],
})
export class GoogleModule {}
