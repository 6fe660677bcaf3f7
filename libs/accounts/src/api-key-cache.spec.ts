import Redis from 'ioredis';
import { loadConfig } from '@app/core';
import { RedisKeys } from '@app/redis';
import { ApiKeyCache, AuthContext, FALLBACK_KEY_CACHE_TTL_MS } from './api-key-cache';
import { KeyCacheInvalidation } from './key-cache-invalidation';

const auth = (accountId: number, keyId: number): AuthContext => ({
  keyId,
  keyLabel: `key ${keyId}`,
  accountId,
  plan: 'pro',
  limits: {} as AuthContext['limits'],
  grantId: 0,
});

function cache(ttl = 5000): ApiKeyCache {
  return new ApiKeyCache(loadConfig({ KEY_CACHE_TTL_MS: String(ttl) }));
}

describe('ApiKeyCache', () => {
  it('keeps entries for KEY_CACHE_TTL_MS while invalidation is live, else for the short fallback', () => {
    const c = cache(5000);
    expect(c.ttlMs).toBe(FALLBACK_KEY_CACHE_TTL_MS); // not subscribed yet
    c.set('h1', auth(1, 1), c.epoch(), 0);
    expect(c.get('h1', FALLBACK_KEY_CACHE_TTL_MS - 1)).toEqual(auth(1, 1));
    expect(c.get('h1', FALLBACK_KEY_CACHE_TTL_MS)).toBeUndefined();

    c.setLive(true);
    expect(c.ttlMs).toBe(5000);
    c.set('h2', null, c.epoch(), 0);
    expect(c.get('h2', 4999)).toBeNull(); // unknown keys are cached too
    expect(c.get('h2', 5000)).toBeUndefined();
  });

  it('clears everything when invalidation goes live or down (messages may have been missed)', () => {
    const c = cache();
    c.setLive(true);
    c.set('h1', auth(1, 1), c.epoch());
    c.setLive(false);
    expect(c.size).toBe(0);
    c.set('h1', auth(1, 1), c.epoch());
    c.setLive(true);
    expect(c.size).toBe(0);
  });

  it('drops one key, or every key of an account', () => {
    const c = cache();
    c.setLive(true);
    c.set('a1', auth(1, 1), c.epoch());
    c.set('a2', auth(1, 2), c.epoch());
    c.set('b1', auth(2, 3), c.epoch());
    c.set('unknown', null, c.epoch());
    c.dropKey('a1');
    expect(c.get('a1')).toBeUndefined();
    expect(c.get('a2')).toBeDefined();
    c.dropAccount(1);
    expect(c.get('a2')).toBeUndefined();
    expect(c.get('b1')).toEqual(auth(2, 3));
    expect(c.get('unknown')).toBeNull();
  });

  it('does not cache a lookup that raced an invalidation (it may have read the old row)', () => {
    const c = cache();
    c.setLive(true);
    const epoch = c.epoch(); // lookup starts
    c.dropKey('h1'); // revocation arrives while it reads PostgreSQL
    c.set('h1', auth(1, 1), epoch);
    expect(c.get('h1')).toBeUndefined();
    c.set('h1', null, c.epoch());
    expect(c.get('h1')).toBeNull();
  });

  it('caches nothing with KEY_CACHE_TTL_MS=0', () => {
    const c = cache(0);
    c.setLive(true);
    c.set('h1', auth(1, 1), c.epoch());
    expect(c.get('h1')).toBeUndefined();
    expect(c.enabled).toBe(false);
  });
});

describe('KeyCacheInvalidation messages', () => {
  const setup = () => {
    const c = cache();
    c.setLive(true);
    // A client that never connects (lazyConnect): applying a message does not reach Redis.
    const redis = new Redis({ lazyConnect: true });
    const inv = new KeyCacheInvalidation(redis, new RedisKeys(loadConfig({})), c);
    c.set('a1', auth(1, 1), c.epoch());
    c.set('b1', auth(2, 2), c.epoch());
    return { c, inv };
  };

  it('uses a channel under the Redis prefix', () => {
    expect(setup().inv.channel).toBe('seo:api-keys:invalidate');
  });

  it('applies key and account messages and ignores anything else', () => {
    const { c, inv } = setup();
    for (const junk of ['', 'not json', 'null', '42', '{"key":1}', '{"account":"1"}', '[]']) {
      inv.apply(junk);
    }
    expect(c.size).toBe(2);
    inv.apply(JSON.stringify({ key: 'a1' }));
    expect(c.get('a1')).toBeUndefined();
    inv.apply(JSON.stringify({ account: 2 }));
    expect(c.get('b1')).toBeUndefined();
  });
});
