import { busyDatabase, unreachableDependency } from './dependency-health';

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
