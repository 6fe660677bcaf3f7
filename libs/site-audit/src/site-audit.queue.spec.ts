import { loadConfig } from '@app/core';
import { redisConnectionOptions } from '@app/redis';
import { bullRootOptions } from './site-audit.queue';

describe('bullRootOptions (issue 22)', () => {
  it('BullMQ (queues, workers and their blocking connections) gets the one set of connection options', () => {
    const config = loadConfig({ REDIS_SENTINELS: '10.0.0.5:26379', REDIS_PREFIX: 'p1' });
    expect(bullRootOptions(config)).toEqual({
      connection: { ...redisConnectionOptions(config), maxRetriesPerRequest: null },
      prefix: 'p1',
    });
    expect(bullRootOptions(config).connection).toMatchObject({
      sentinels: [{ host: '10.0.0.5', port: 26379 }],
      failoverDetector: true,
    });
  });

  it('without REDIS_SENTINELS: REDIS_URL, as before', () => {
    const config = loadConfig({ REDIS_URL: 'redis://10.0.0.9:6380' });
    expect(bullRootOptions(config).connection).toEqual({
      url: 'redis://10.0.0.9:6380',
      maxRetriesPerRequest: null,
    });
  });
});
