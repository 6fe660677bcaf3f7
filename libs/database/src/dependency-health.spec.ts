import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { metrics } from '@app/core';
import {
  DependencyHealth,
  busyDatabase,
  redisOutOfMemory,
  unreachableDependency,
} from './dependency-health';
import type { PostgresPing } from './postgres-ping';

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
    [new Error('Connection terminated due to connection timeout'), 'postgres'],
    [{ name: 'QueryFailedError', message: 'x', driverError: { code: '57P01' } }, 'postgres'],
    [{ message: 'wrapped', cause: { code: '08006' } }, 'postgres'],
    [
      { name: 'QueryFailedError', message: 'read-only', driverError: { code: '25006' } },
      'postgres',
    ],
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

/**
 * PostgreSQL answering but not in time (issue 35): a clean 500 with Retry-After counted in
 * db_busy_total, never an outage ("Dependency down" and probes would flap per request).
 */
describe('busyDatabase', () => {
  it.each([
    [
      {
        name: 'QueryFailedError',
        message: 'canceling statement due to statement timeout',
        driverError: { code: '57014' },
      },
      'query_canceled',
    ],
    [
      Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' }),
      'lock_not_available',
    ],
    [{ message: 'wrapped', cause: { code: '55P03' } }, 'lock_not_available'],
    // pg-pool: no free slot of our own pool within connectionTimeoutMillis.
    [new Error('timeout exceeded when trying to connect'), 'pool_wait'],
  ])('%p → %s, not an outage', (err, reason) => {
    expect(busyDatabase(err)).toBe(reason);
    expect(unreachableDependency(err)).toBeNull();
  });

  it.each([
    [new Error('boom')],
    [{ name: 'QueryFailedError', message: 'duplicate key', driverError: { code: '23505' } }],
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    [new Error('Connection terminated due to connection timeout')],
    [{ code: 57014 }],
    [null],
    ['55P03'],
  ])('%p is not busy', (err) => {
    expect(busyDatabase(err)).toBeNull();
  });
});

/** What DependencyHealth uses of its Redis client and DataSource (the real ones satisfy these). */
interface RedisUse {
  on(event: string, listener: (err: Error) => void): unknown;
  ping(): Promise<unknown>;
}
interface DataSourceUse {
  query(sql: string): Promise<unknown>;
}

/** A DependencyHealth over typed fakes: each has the members used, with the real signatures. */
function dependencyHealth(
  redis: RedisUse,
  dataSource: DataSourceUse = { query: async () => [] },
  postgresPing: Pick<PostgresPing, 'ping'> = { ping: async () => undefined },
): DependencyHealth {
  return new DependencyHealth(
    redis as Redis,
    dataSource as DataSource,
    postgresPing as PostgresPing,
  );
}

describe('DependencyHealth.requestBusy', () => {
  const make = (ping: () => Promise<void>) => {
    const redis = Object.assign(new EventEmitter(), { ping: async () => 'PONG' as const });
    const dataSource = { query: async () => [{ '?column?': 1 }] };
    return dependencyHealth(redis, dataSource, { ping });
  };
  const settle = () => new Promise((r) => setTimeout(r, 10));

  it('a lock or statement timeout is counted, never marks PostgreSQL down, and pings nothing', async () => {
    const ping = jest.fn(async () => undefined);
    const health = make(ping);
    const before = (await metrics.dbBusy.get()).values.find(
      (v) => v.labels.reason === 'lock_not_available',
    )?.value;
    expect(health.requestBusy({ driverError: { code: '55P03' } })).toBe('lock_not_available');
    expect(health.requestBusy({ code: '57014' })).toBe('query_canceled');
    await settle();
    expect(ping).not.toHaveBeenCalled();
    expect(health.isDown('postgres')).toBe(false);
    const after = (await metrics.dbBusy.get()).values.find(
      (v) => v.labels.reason === 'lock_not_available',
    )?.value;
    expect((after ?? 0) - (before ?? 0)).toBe(1);
    health.onApplicationShutdown();
  });

  it('a pool wait asks PostgreSQL on the readiness connection: busy while it answers', async () => {
    const ping = jest.fn(async () => undefined);
    const health = make(ping);
    expect(health.requestBusy(new Error('timeout exceeded when trying to connect'))).toBe(
      'pool_wait',
    );
    await settle();
    expect(ping).toHaveBeenCalledTimes(1);
    expect(health.isDown('postgres')).toBe(false);
    health.onApplicationShutdown();
  });

  it('a pool wait while PostgreSQL does not answer on its own connection marks it down', async () => {
    const ping = jest.fn(async () => {
      throw new Error('PostgreSQL ping timed out');
    });
    const health = make(ping);
    expect(health.requestBusy(new Error('timeout exceeded when trying to connect'))).toBe(
      'pool_wait',
    );
    await settle();
    expect(health.isDown('postgres')).toBe(true);
    health.onApplicationShutdown();
  });

  it('anything else is not busy', () => {
    const health = make(async () => undefined);
    expect(health.requestBusy(new Error('boom'))).toBeNull();
    health.onApplicationShutdown();
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
    const health = dependencyHealth({ on: jest.fn(), ping: jest.fn() });
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
