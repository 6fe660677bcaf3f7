import { unreachableDependency } from './dependency-health';

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
