import { CrawlError } from '@app/crawler';
import { decideFailure } from './crawl-failure';

const ctx = { gone: false, stopping: false, finalAttempt: false };

describe('site-audit failure decisions', () => {
  it.each(['UNREACHABLE', 'PRIVATE_ADDRESS', 'INVALID_URL', 'TIMEOUT'] as const)(
    "%s is the site's side: failed at once with that code (no retry, no refund)",
    (code) => {
      const d = decideFailure(new CrawlError(code, 'detail'), ctx);
      expect(d.kind).toBe('site');
      expect(d.kind === 'site' && d.error.code).toBe(code);
    },
  );

  it('an internal error is retried until the last attempt, which fails with a refund', () => {
    expect(decideFailure(new Error('db down'), ctx)).toEqual({ kind: 'retry' });
    const last = decideFailure(new Error('db down'), { ...ctx, finalAttempt: true });
    expect(last.kind).toBe('internal');
    expect(last.kind === 'internal' && last.error.code).toBe('INTERNAL_ERROR');
  });

  it('a crawl cancelled by shutdown goes back to the queue without using an attempt', () => {
    expect(
      decideFailure(new CrawlError('CANCELLED', 'aborted'), {
        ...ctx,
        stopping: true,
        finalAttempt: true,
      }),
    ).toEqual({
      kind: 'requeue',
    });
  });

  it('a job ended elsewhere (swept) stops quietly, whatever the error', () => {
    expect(decideFailure(new CrawlError('CANCELLED', 'aborted'), { ...ctx, gone: true })).toEqual({
      kind: 'gone',
    });
  });

  it('internal error messages leak nothing', () => {
    const d = decideFailure(new Error('password=secret at db'), { ...ctx, finalAttempt: true });
    expect(JSON.stringify(d)).not.toContain('secret');
  });
});
