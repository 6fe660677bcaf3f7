import { Logger } from '@nestjs/common';
import { metrics } from '@app/core';
import { DependencyHealth, redisOutOfMemory, unreachableDependency } from './dependency-health';

describe('unreachableDependency', () => {
  it.each([
    [
      { name: 'MaxRetriesPerRequestError', message: 'Reached the max retries per request limit' },
      'redis',
    ],
    [new Error('Command timed out'), 'redis'],
    [new Error('Connection is closed.'), 'redis'],
    [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      'postgres',
    ],
    [new Error('Connection terminated unexpectedly'), 'postgres'],
    [new Error('timeout exceeded when trying to connect'), 'postgres'],
    [{ name: 'QueryFailedError', message: 'x', driverError: { code: '57P01' } }, 'postgres'],
    [{ message: 'wrapped', cause: { code: '08006' } }, 'postgres'],
  ])('%p → %s', (err, dependency) => {
    expect(unreachableDependency(err)).toBe(dependency);
  });

  it.each([
    [new Error('boom')],
    [{ name: 'QueryFailedError', message: 'duplicate key', driverError: { code: '23505' } }],
    [{ name: 'ReplyError', message: 'ERR wrong number of arguments' }],
    [null],
    ['Command timed out'],
  ])('%p is not an outage', (err) => {
    expect(unreachableDependency(err)).toBeNull();
  });
});

describe('redisOutOfMemory (maxmemory reached with noeviction)', () => {
  const OOM = "OOM command not allowed when used memory > 'maxmemory'.";
  it.each([
    [{ name: 'ReplyError', message: OOM }],
    // A script whose first write is refused (the per-minute limit's INCR).
    [{ name: 'ReplyError', message: `${OOM} script: 9d3c..., on @user_script:13.` }],
    // The enqueue's 500 carries it as its cause.
    [{ name: 'ApiError', message: 'The audit could not be queued.', cause: { message: OOM } }],
  ])('%p is Redis refusing a write', (err) => {
    expect(redisOutOfMemory(err)).toBe(true);
    expect(unreachableDependency(err)).toBeNull(); // not an outage: Redis answers
  });

  it.each([
    [new Error('boom')],
    [{ name: 'ReplyError', message: 'ERR wrong number of arguments' }],
    [{ name: 'ReplyError', message: 'NOOM command' }],
    [null],
    [OOM], // a string, not an error
    [{ message: 'wrapped', cause: { message: 'still not it' } }],
  ])('%p is not', (err) => {
    expect(redisOutOfMemory(err)).toBe(false);
  });

  it('DependencyHealth: an OOM answers "redis" (a 500 with Retry-After), counted, logged once a minute, not marked down', () => {
    const redis = { on: jest.fn(), ping: jest.fn() };
    const health = new DependencyHealth(redis as never, {} as never);
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const before = counterValue();
    try {
      for (let i = 0; i < 5; i++) {
        expect(health.requestFailed({ name: 'ReplyError', message: OOM })).toBe('redis');
      }
      expect(health.requestFailed(new Error('boom'))).toBeNull();
      expect(health.isDown('redis')).toBe(false);
      expect(error).toHaveBeenCalledTimes(1);
      expect(String(error.mock.calls[0][1])).toMatch(/^Redis refuses writes: maxmemory reached/);
      expect(counterValue() - before).toBe(5);
    } finally {
      error.mockRestore();
      health.onApplicationShutdown();
    }
  });
});

function counterValue(): number {
  return (
    (metrics.redisOomRefusals as unknown as { hashMap: Record<string, { value: number }> }).hashMap[
      ''
    ]?.value ?? 0
  );
}
