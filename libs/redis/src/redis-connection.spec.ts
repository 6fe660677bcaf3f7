import Redis, { SentinelConnector } from 'ioredis';
import { loadConfig } from '@app/core';
import {
  FailoverSafeSentinelConnector,
  readonlyReconnect,
  redisConnectionOptions,
  redisTargetLabel,
} from './redis-connection';
import { createRedis } from './redis.module';

describe('redisConnectionOptions (issue 22)', () => {
  it('without REDIS_SENTINELS: REDIS_URL and nothing else (no Sentinel cost on the hot path)', () => {
    const config = loadConfig({ REDIS_URL: 'redis://:secret@10.0.0.9:6380/0' });
    expect(redisConnectionOptions(config)).toEqual({ url: 'redis://:secret@10.0.0.9:6380/0' });
  });

  it('with REDIS_SENTINELS: the master through the Sentinels, following failovers; REDIS_URL ignored', () => {
    const config = loadConfig({
      REDIS_SENTINELS: '10.0.0.5:26379,10.0.0.6:26379',
      REDIS_SENTINEL_MASTER: 'main',
      REDIS_URL: 'redis://:secret@10.0.0.9:6380',
      REDIS_COMMAND_TIMEOUT_MS: '1500',
    });
    const options = redisConnectionOptions(config);
    expect(options).toMatchObject({
      sentinels: [
        { host: '10.0.0.5', port: 26379 },
        { host: '10.0.0.6', port: 26379 },
      ],
      name: 'main',
      role: 'master',
      failoverDetector: true,
      Connector: FailoverSafeSentinelConnector,
      sentinelCommandTimeout: 1500,
      connectTimeout: 1500,
    });
    expect(options.url).toBeUndefined();
    expect(options.password).toBeUndefined();
    expect(options.host).toBeUndefined();
  });

  it('a READONLY answer reconnects and resends the command (2); other errors do not', () => {
    expect(
      readonlyReconnect(new Error("READONLY You can't write against a read only replica.")),
    ).toBe(2);
    expect(readonlyReconnect(new Error('ERR wrong number of arguments'))).toBe(false);
    expect(readonlyReconnect(new Error('NOSCRIPT No matching script'))).toBe(false);
  });

  it('the shared client and its duplicates (pub/sub subscribers) keep the Sentinel options', () => {
    // Options only: no connection is opened.
    const connect = jest.spyOn(Redis.prototype, 'connect').mockResolvedValue(undefined);
    try {
      const config = loadConfig({ REDIS_SENTINELS: '127.0.0.1:1' });
      const redis = createRedis(redisConnectionOptions(config), 2000);
      const dup = redis.duplicate({ enableAutoPipelining: false });
      for (const client of [redis, dup]) {
        expect(client.options).toMatchObject({
          sentinels: [{ host: '127.0.0.1', port: 1 }],
          name: 'seo',
          role: 'master',
          failoverDetector: true,
          reconnectOnError: readonlyReconnect,
          maxRetriesPerRequest: 0,
        });
      }
      expect(connect).toHaveBeenCalled();
    } finally {
      connect.mockRestore();
    }
  });

  it('labels the target without a password', () => {
    expect(redisTargetLabel(loadConfig({ REDIS_URL: 'redis://:secret@10.0.0.9:6380' }))).toBe(
      '10.0.0.9:6380',
    );
    expect(redisTargetLabel(loadConfig({ REDIS_SENTINELS: '10.0.0.5:26379,[::1]:26380' }))).toBe(
      'master "seo" via Sentinels 10.0.0.5:26379,[::1]:26380',
    );
  });

  it("a reconnection first drops the previous connection's failover detector (else a late +switch-master cancels it for good)", async () => {
    const options = { sentinels: [{ host: '127.0.0.1', port: 1 }], name: 'seo' };
    // The ioredis field the fix relies on still exists.
    expect(new SentinelConnector(options)).toHaveProperty('failoverDetector', null);

    const connect = jest.spyOn(SentinelConnector.prototype, 'connect').mockImplementation(function (
      this: unknown,
    ) {
      // ioredis's own connect runs after the stale detector is gone
      expect(this).toHaveProperty('failoverDetector', null);
      return Promise.reject(new Error('no Sentinel in a unit test'));
    });
    try {
      const connector = new FailoverSafeSentinelConnector(options);
      const stale = { cleanup: jest.fn() };
      (connector as unknown as { failoverDetector: unknown }).failoverDetector = stale;
      await expect(connector.connect(() => undefined)).rejects.toThrow('no Sentinel');
      expect(stale.cleanup).toHaveBeenCalledTimes(1);
      expect(connect).toHaveBeenCalledTimes(1);
    } finally {
      connect.mockRestore();
    }
  });
});
