import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { SecretBox } from '@app/core';
import {
  GoogleClient,
  GoogleSearchConsoleSource,
  GscRefreshTokens,
  SearchConsoleError,
  pkcePair,
} from '@app/providers';
import { FakeGoogle } from '../fixtures/fake-google';

/**
 * The Google client over real HTTP against the local fake of Google's OAuth and Search
 * Console endpoints (no mocked HTTP): the authorization URL, PKCE, single-use codes, refresh
 * and its cache, invalid_grant, revocation, userinfo, sites.list and searchAnalytics.query
 * paging, and the error kinds of a 429, a quota 403 and a site removed from the account.
 */
describe('Google client (real HTTP, fake Google)', () => {
  const fake = new FakeGoogle();
  let client: GoogleClient;
  const redirectUri = 'http://localhost:3999/account/gsc/callback';

  beforeAll(async () => {
    Logger.overrideLogger(false);
    await fake.start();
    fake.redirectUris.add(redirectUri);
    client = new GoogleClient(fake.clientOptions());
  });
  afterAll(() => fake.close());

  const failure = async (p: Promise<unknown>): Promise<SearchConsoleError> => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SearchConsoleError);
    return err as SearchConsoleError;
  };

  /** Runs the browser's part: the authorization URL, answered by the fake's redirect. */
  async function consent(state = 'st-1') {
    const pkce = pkcePair();
    const url = client.authorizationUrl({ redirectUri, state, codeChallenge: pkce.challenge });
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    return { pkce, back, code: back.searchParams.get('code')! };
  }

  it('builds the documented authorization request', () => {
    const url = new URL(
      client.authorizationUrl({ redirectUri, state: 'abc', codeChallenge: 'x'.repeat(43) }),
    );
    expect(url.origin + url.pathname).toBe(`${fake.url}/o/oauth2/v2/auth`);
    const p = Object.fromEntries(url.searchParams);
    expect(p).toMatchObject({
      response_type: 'code',
      client_id: fake.clientId,
      redirect_uri: redirectUri,
      scope: 'openid email https://www.googleapis.com/auth/webmasters.readonly',
      access_type: 'offline',
      prompt: 'consent',
      state: 'abc',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    expect(url.toString()).not.toContain(fake.clientSecret);
  });

  it('exchanges a code once, with its PKCE verifier, and reads the e-mail and sites', async () => {
    const { pkce, back, code } = await consent('state-42');
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('state-42');

    const wrong = await failure(
      client.exchangeCode({ code, codeVerifier: pkcePair().verifier, redirectUri }),
    );
    expect(wrong.kind).toBe('reauth_required'); // invalid_grant: the code is spent too

    const again = await consent();
    const tokens = await client.exchangeCode({
      code: again.code,
      codeVerifier: again.pkce.verifier,
      redirectUri,
    });
    expect(tokens.refreshToken).toMatch(/^1\/\//);
    const reused = await failure(
      client.exchangeCode({ code: again.code, codeVerifier: again.pkce.verifier, redirectUri }),
    );
    expect(reused.kind).toBe('reauth_required');
    void pkce;

    expect(await client.userEmail(tokens.accessToken)).toBe('owner@example.com');
    expect(await client.listSites(tokens.accessToken)).toEqual([
      { siteUrl: 'sc-domain:example.com', permissionLevel: 'siteOwner' },
      { siteUrl: 'https://www.example.com/', permissionLevel: 'siteFullUser' },
      { siteUrl: 'https://blog.example.org/', permissionLevel: 'siteUnverifiedUser' },
    ]);
  });

  it('refuses a consent without the Search Console scope', async () => {
    fake.grantScope = 'openid https://www.googleapis.com/auth/userinfo.email';
    try {
      const { pkce, code } = await consent();
      const err = await failure(
        client.exchangeCode({ code, codeVerifier: pkce.verifier, redirectUri }),
      );
      expect(err.kind).toBe('fatal');
    } finally {
      fake.grantScope =
        'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/webmasters.readonly';
    }
  });

  it('caches the access token of a refresh token until it expires; invalid_grant after revocation', async () => {
    const refresh = fake.issueRefreshToken();
    const refreshes = () => fake.requests.filter((r) => r.grant === 'refresh_token').length;
    const before = refreshes();
    const a = await client.accessToken(refresh);
    expect(await client.accessToken(refresh)).toBe(a);
    expect(refreshes()).toBe(before + 1);

    const shortLived = new GoogleClient(fake.clientOptions());
    fake.accessTokenSeconds = 30; // under the one-minute margin: refreshed every time
    try {
      await shortLived.accessToken(refresh);
      await shortLived.accessToken(refresh);
      expect(refreshes()).toBe(before + 3);
    } finally {
      fake.accessTokenSeconds = 3599;
    }

    await client.revoke(refresh);
    expect(fake.refreshTokens.get(refresh)!.revoked).toBe(true);
    const err = await failure(client.accessToken(refresh));
    expect(err.kind).toBe('reauth_required');
    // A token Google no longer knows counts as revoked.
    await expect(client.revoke('1//unknown')).resolves.toBeUndefined();
  });

  it('pages searchAnalytics.query by startRow with the documented request', async () => {
    const site = 'https://www.example.com/';
    fake.addFacts(site, '2026-11-20', 25_003);
    const access = await client.accessToken(fake.issueRefreshToken());
    const first = await client.queryDay(access, site, '2026-11-20', 0, 25_000);
    const second = await client.queryDay(access, site, '2026-11-20', 25_000, 25_000);
    const third = await client.queryDay(access, site, '2026-11-20', 50_000, 25_000);
    expect([first.length, second.length, third.length]).toEqual([25_000, 3, 0]);
    expect(first[0].keys).toHaveLength(5);
    expect(first[0].clicks).toBeGreaterThanOrEqual(first[1].clicks);
    const last = fake.requests.filter((r) => r.path.endsWith('/searchAnalytics/query')).at(-1)!;
    expect(last.path).toBe(
      '/webmasters/v3/sites/https%3A%2F%2Fwww.example.com%2F/searchAnalytics/query',
    );
    expect(last.body).toEqual({
      startDate: '2026-11-20',
      endDate: '2026-11-20',
      dimensions: ['date', 'query', 'page', 'country', 'device'],
      type: 'web',
      dataState: 'final',
      aggregationType: 'auto',
      rowLimit: 25_000,
      startRow: 50_000,
    });
    expect(await client.queryDay(access, 'sc-domain:example.com', '2026-11-20', 0, 10)).toEqual([]);
  });

  it('maps a 429, a quota 403, a 5xx, a removed site and a bad token to the port’s kinds', async () => {
    const access = await client.accessToken(fake.issueRefreshToken());
    const day = '2026-11-19';
    const site = 'sc-domain:example.com';
    fake.failNext.push('429', 'quota403', '500');
    const rate = await failure(client.queryDay(access, site, day, 0, 100));
    expect([rate.kind, rate.retryAfterMs]).toEqual(['quota', 30_000]);
    const quota = await failure(client.queryDay(access, site, day, 0, 100));
    expect([quota.kind, quota.retryAfterMs]).toEqual(['quota', 900_000]);
    expect((await failure(client.queryDay(access, site, day, 0, 100))).kind).toBe('transient');

    const unverified = await failure(
      client.queryDay(access, 'https://blog.example.org/', day, 0, 1),
    );
    expect(unverified.kind).toBe('not_found');
    fake.addUser('second@example.com', [
      { siteUrl: 'sc-domain:gone.example', permissionLevel: 'siteOwner' },
    ]);
    const secondAccess = await client.accessToken(fake.issueRefreshToken('second@example.com'));
    expect(await client.queryDay(secondAccess, 'sc-domain:gone.example', day, 0, 1)).toEqual([]);
    fake.removeSite('second@example.com', 'sc-domain:gone.example');
    const removed = await failure(
      client.queryDay(secondAccess, 'sc-domain:gone.example', day, 0, 1),
    );
    expect(removed.kind).toBe('not_found');
    expect(await client.listSites(secondAccess)).toEqual([]);

    const bad = await failure(client.queryDay('ya29.not-a-token', site, day, 0, 1));
    expect(bad.kind).toBe('transient');
  });

  it('times out a Google that does not answer (transient)', async () => {
    const slow = new GoogleClient(fake.clientOptions(200));
    fake.slowMs = 1000;
    try {
      const err = await failure(slow.accessToken(fake.issueRefreshToken()));
      expect([err.kind, err.message]).toEqual(['transient', 'timed out after 200 ms']);
    } finally {
      fake.slowMs = 0;
    }
  });

  it('implements SearchConsoleSource: sealed refresh token, one refresh after a 401, reauth_required', async () => {
    const tokens = new GscRefreshTokens(new SecretBox(randomBytes(32)));
    const source = new GoogleSearchConsoleSource(new GoogleClient(fake.clientOptions()), tokens);
    const refresh = fake.issueRefreshToken();
    const connection = { id: 7, refreshTokenEnc: tokens.seal(7, refresh) };
    expect(connection.refreshTokenEnc).toMatch(/^enc:v1:/);
    expect(connection.refreshTokenEnc).not.toContain(refresh);
    // Bound to its row: the same value under another id does not open.
    expect(() => tokens.open({ id: 8, refreshTokenEnc: connection.refreshTokenEnc })).toThrow();

    fake.addFacts('sc-domain:example.com', '2026-11-18', 3);
    const access = await source.accessFor(connection);
    expect(access.connectionId).toBe(7);
    expect(
      (await source.query(access, 'sc-domain:example.com', '2026-11-18', 0, 25_000)).rows,
    ).toHaveLength(3);

    // Google stops taking the access token: refreshed once, the page asked again.
    fake.accessTokens.get(access.accessToken)!.expiresAt = 0;
    expect(
      (await source.query(access, 'sc-domain:example.com', '2026-11-18', 0, 2)).rows,
    ).toHaveLength(2);

    fake.refreshTokens.get(refresh)!.revoked = true;
    for (const t of fake.accessTokens.values()) if (t.refreshToken === refresh) t.revoked = true;
    const err = await failure(source.query(access, 'sc-domain:example.com', '2026-11-18', 0, 2));
    expect(err.kind).toBe('reauth_required');
  });
});
