import type { ExecutionContext } from '@nestjs/common';
import { ApiError, AppConfig, ManualClock } from '@app/core';
import type { IdempotencyKeysRepository } from '@app/database';
import { IdempotencyGuard } from './idempotency.guard';

const config = { dataforseo: { maxRetries: 2, timeoutMs: 30_000 } } as AppConfig;

function contextOf(req: Record<string, unknown>): ExecutionContext {
  return {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => ({}) }),
  } as unknown as ExecutionContext;
}

describe('IdempotencyGuard: when it does nothing', () => {
  const keys = { claim: jest.fn(), find: jest.fn() };
  const guard = new IdempotencyGuard(
    keys as unknown as IdempotencyKeysRepository,
    new ManualClock(),
    config,
  );
  const auth = { accountId: 7 };
  const header = ['Idempotency-Key', 'k-1'];
  afterEach(() => jest.clearAllMocks());

  it.each([
    ['a GET', { method: 'GET', auth, route: { path: '/api/v1/usage' }, rawHeaders: header }],
    [
      'a POST without the header',
      { method: 'POST', auth, route: { path: '/api/v1/site-audit' }, rawHeaders: [] },
    ],
    [
      'a POST without a key-authenticated caller',
      { method: 'POST', route: { path: '/api/v1/site-audit' }, rawHeaders: header },
    ],
    [
      'a POST outside /api/v1',
      { method: 'POST', auth, route: { path: '/account/v1/api-keys' }, rawHeaders: header },
    ],
  ])('%s: true at once (synchronously), no statement', (_name, req) => {
    expect(guard.canActivate(contextOf(req))).toBe(true);
    expect(keys.claim).not.toHaveBeenCalled();
  });

  it('a malformed key: 422 before any statement', () => {
    const req = {
      method: 'POST',
      auth,
      route: { path: '/api/v1/site-audit' },
      rawHeaders: ['Idempotency-Key', 'k'.repeat(256)],
    };
    expect(() => guard.canActivate(contextOf(req))).toThrow(ApiError);
    expect(keys.claim).not.toHaveBeenCalled();
  });

  it('the lease outlasts the longest upstream call: 2 × (retries + 1) × timeout + 60 s', () => {
    expect(guard.leaseMs).toBe(240_000);
  });
});
