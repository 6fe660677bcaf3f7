import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig, metricsRegistry } from '@app/core';
import {
  MemoryPolicySource,
  RedisMemoryPolicy,
  parseInfoMemory,
  readMemoryPolicy,
} from './redis-memory-policy';

const replyError = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });

/** A stand-in for the ioredis client (the two commands read): CONFIG GET answers `config`, INFO memory answers `info`. */
function fakeRedis(options: { policy?: string; config?: 'disabled' | 'down'; info?: string }) {
  return {
    config: jest.fn((_get: 'GET', name: string): Promise<string[]> => {
      if (options.config === 'disabled')
        return Promise.reject(
          replyError("ERR unknown command 'CONFIG', with args beginning with:"),
        );
      if (options.config === 'down') return Promise.reject(new Error('Connection is closed.'));
      return Promise.resolve(
        name === 'maxmemory-policy' ? [name, options.policy ?? 'noeviction'] : [name, '2097152'],
      );
    }),
    info: jest.fn((_section: 'memory'): Promise<string> =>
      Promise.resolve(
        options.info ??
          `# Memory\r\nused_memory:1000\r\nmaxmemory:1048576\r\nmaxmemory_policy:${options.policy ?? 'noeviction'}\r\n`,
      ),
    ),
  } satisfies MemoryPolicySource;
}

async function gauge(): Promise<Record<string, number>> {
  const m = await metricsRegistry.getSingleMetric('redis_maxmemory_policy')!.get();
  return Object.fromEntries(m.values.map((v) => [String(v.labels.policy), v.value]));
}

describe('Redis maxmemory-policy (issue 35)', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('parseInfoMemory reads maxmemory_policy and maxmemory; null without the field', () => {
    expect(
      parseInfoMemory('# Memory\r\nmaxmemory:2097152\r\nmaxmemory_policy:allkeys-lru\r\n'),
    ).toEqual({ policy: 'allkeys-lru', maxmemory: 2097152 });
    expect(parseInfoMemory('# Memory\r\nused_memory:1\r\n')).toBeNull();
    expect(parseInfoMemory('')).toBeNull();
  });

  it('CONFIG GET where allowed; INFO memory where CONFIG is disabled (managed Redis)', async () => {
    const withConfig = fakeRedis({ policy: 'volatile-lru' });
    expect(await readMemoryPolicy(withConfig)).toMatchObject({
      policy: 'volatile-lru',
      maxmemory: 2097152,
      source: 'config',
    });
    expect(withConfig.info).not.toHaveBeenCalled();
    const managed = fakeRedis({ policy: 'allkeys-lfu', config: 'disabled' });
    expect(await readMemoryPolicy(managed)).toMatchObject({
      policy: 'allkeys-lfu',
      maxmemory: 1048576,
      source: 'info',
    });
  });

  it('a lost connection is not read as a policy (rejects; INFO is not tried)', async () => {
    const down = fakeRedis({ config: 'down' });
    await expect(readMemoryPolicy(down)).rejects.toThrow('Connection is closed.');
    expect(down.info).not.toHaveBeenCalled();
  });

  it('INFO without maxmemory_policy (hostile or odd server) rejects rather than guessing', async () => {
    const odd = fakeRedis({ config: 'disabled', info: 'maxmemory_policy\r\n' });
    await expect(readMemoryPolicy(odd)).rejects.toThrow(/maxmemory_policy/);
  });

  it.each(['allkeys-lru', 'volatile-ttl', 'allkeys-random'])(
    'production + %s: the start is refused with a message saying what to set',
    async (policy) => {
      const p = new RedisMemoryPolicy(
        fakeRedis({ policy }),
        loadConfig({ NODE_ENV: 'production', REDIS_URL: 'redis://127.0.0.1:6390' }),
      );
      const err = (await p.checkAtStartup().catch((e: unknown) => e)) as ConfigError;
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).toContain(`Redis (127.0.0.1:6390) has maxmemory-policy ${policy}`);
      expect(err.message).toContain('Set maxmemory-policy noeviction');
      expect(p.status()).toMatchObject({ policy, ok: false });
    },
  );

  it('development + allkeys-lru: a warning, the start goes on; the gauge names the policy', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const p = new RedisMemoryPolicy(fakeRedis({ policy: 'allkeys-lru' }), loadConfig({}));
      await expect(p.checkAtStartup()).resolves.toBeUndefined();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][1])).toMatch(/maxmemory-policy allkeys-lru.*development/);
      await p.refresh(); // the same policy again: no second line
      expect(warn).toHaveBeenCalledTimes(1);
      expect(await gauge()).toEqual({ 'allkeys-lru': 1 });
    } finally {
      warn.mockRestore();
    }
  });

  it('production + noeviction starts; an unknown policy name is labelled "other"', async () => {
    const ok = new RedisMemoryPolicy(
      fakeRedis({ policy: 'noeviction' }),
      loadConfig({ NODE_ENV: 'production' }),
    );
    await expect(ok.checkAtStartup()).resolves.toBeUndefined();
    expect(ok.status()).toMatchObject({ policy: 'noeviction', ok: true, source: 'config' });
    expect(ok.problem()).toBeNull();
    expect(await gauge()).toEqual({ noeviction: 1 });

    const odd = new RedisMemoryPolicy(fakeRedis({ policy: 'my"policy{x}' }), loadConfig({}));
    await odd.refresh();
    expect(await gauge()).toEqual({ other: 1 });
  });

  it('Redis not answering at start-up: the start goes on (checked again later), status unknown', async () => {
    const p = new RedisMemoryPolicy(
      fakeRedis({ config: 'down' }),
      loadConfig({ NODE_ENV: 'production' }),
    );
    await expect(p.checkAtStartup()).resolves.toBeUndefined();
    expect(p.status()).toEqual({
      policy: 'unknown',
      ok: false,
      maxmemory: null,
      source: null,
      checked_at: null,
    });
    expect(p.problem()).toBeNull();
  });
});
