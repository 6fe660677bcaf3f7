import { ConfigError, loadConfig } from './app-config';

const SECRET = 's'.repeat(32);

/** Postbacks of rank collection (docs/rank-collection.md, "Postbacks"; docs/configuration.md). */
describe('loadConfig: rank-collection postbacks', () => {
  const problems = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
    } catch (e) {
      if (e instanceof ConfigError) return e.problems;
      throw e;
    }
    return [];
  };

  it('off by default: no base URL, no secret', () => {
    expect(loadConfig({}).rankCollection.postback).toEqual({
      baseUrl: undefined,
      secret: undefined,
    });
    expect(
      loadConfig({ RANK_POSTBACK_BASE_URL: '', RANK_POSTBACK_SECRET: '' }).rankCollection.postback,
    ).toEqual({
      baseUrl: undefined,
      secret: undefined,
    });
  });

  it('on with a base URL and its secret; the trailing slash is dropped', () => {
    const c = loadConfig({
      RANK_POSTBACK_BASE_URL: 'https://api.example.com/',
      RANK_POSTBACK_SECRET: SECRET,
    });
    expect(c.rankCollection.postback).toEqual({
      baseUrl: 'https://api.example.com',
      secret: SECRET,
    });
    // The API alone (the receiver) needs only the secret.
    expect(loadConfig({ RANK_POSTBACK_SECRET: SECRET }).rankCollection.postback.secret).toBe(
      SECRET,
    );
  });

  it('a base URL without the secret stops start-up, naming the variable', () => {
    expect(problems({ RANK_POSTBACK_BASE_URL: 'https://api.example.com' })).toEqual([
      'RANK_POSTBACK_SECRET: RANK_POSTBACK_BASE_URL needs RANK_POSTBACK_SECRET (at least 32 characters)',
    ]);
  });

  it('a short secret is refused', () => {
    expect(problems({ RANK_POSTBACK_SECRET: 'x'.repeat(31) })).toEqual([
      'RANK_POSTBACK_SECRET: must be at least 32 characters (e.g. `openssl rand -base64 32`)',
    ]);
  });

  it('not a URL, or not http(s), is refused', () => {
    expect(
      problems({ RANK_POSTBACK_BASE_URL: 'api.example.com', RANK_POSTBACK_SECRET: SECRET }),
    ).toEqual(['RANK_POSTBACK_BASE_URL: must be a URL starting with http:// or https://']);
    expect(
      problems({ RANK_POSTBACK_BASE_URL: 'ftp://x', RANK_POSTBACK_SECRET: SECRET }),
    ).toHaveLength(1);
  });

  it('production needs https; development accepts http (a local fake)', () => {
    const http = { RANK_POSTBACK_BASE_URL: 'http://api.example.com', RANK_POSTBACK_SECRET: SECRET };
    expect(problems({ ...http, NODE_ENV: 'production' })).toEqual([
      'RANK_POSTBACK_BASE_URL: must start with https:// in production (NODE_ENV=production)',
    ]);
    expect(problems(http)).toEqual([]);
    expect(
      problems({
        ...http,
        RANK_POSTBACK_BASE_URL: 'HTTPS://api.example.com',
        NODE_ENV: 'production',
      }),
    ).toEqual([]);
  });
});
