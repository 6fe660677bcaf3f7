import { isCrawlError } from '@app/crawler';
import type { JobError } from '@app/database';

/**
 * How site-audit jobs fail: the error of each failure (`error` of the job record) and what
 * the processor does with an error of one attempt.
 */

/** What the processor does with an error of one attempt. */
type FailureDecision =
  /** The row is no longer running (swept or ended elsewhere): stop quietly. */
  | { kind: 'gone' }
  /** The worker is shutting down: put the job back in the queue without using an attempt. */
  | { kind: 'requeue' }
  /** The site's side (unreachable, private address, timeout): fail now; the crawl counts. */
  | { kind: 'site'; error: JobError }
  /** Transient and not the last attempt: rethrow so BullMQ retries with backoff (row stays running). */
  | { kind: 'retry' }
  /** Our side and the last attempt: fail the row and refund the crawl count and its pages. */
  | { kind: 'internal'; error: JobError };

interface FailureContext {
  /** A progress write found the row no longer running. */
  gone: boolean;
  /** The worker is closing (SIGTERM). */
  stopping: boolean;
  /** This attempt is the job's last one. */
  finalAttempt: boolean;
}

const NOT_COUNTED = 'The crawl was not counted; please retry.';

/** Failures on our side: the crawl count and the pages are refunded. */
function ourError(code: string, what: string, after = NOT_COUNTED): JobError {
  return { code, message: `${what} ${after}` };
}

export const INTERNAL_ERROR = ourError(
  'INTERNAL_ERROR',
  'The audit failed because of an internal error.',
);
export const DEADLINE_EXCEEDED = ourError('DEADLINE_EXCEEDED', 'The audit did not finish in time.');
export const STALLED = ourError(
  'STALLED',
  'The audit was interrupted too often (worker restarts).',
);
export const LOST = ourError('LOST', 'The audit was lost by the queue.');
export const ENQUEUE_FAILED = ourError(
  'ENQUEUE_FAILED',
  'The audit could not be queued.',
  'Nothing was charged; please retry.',
);

function siteError(code: string, detail: string): JobError {
  switch (code) {
    case 'UNREACHABLE':
      return { code, message: `The site could not be reached: ${detail}` };
    case 'PRIVATE_ADDRESS':
      return {
        code,
        message:
          'The site resolves to a private, loopback or reserved address and cannot be audited.',
      };
    case 'INVALID_URL':
      return { code, message: `The URL cannot be crawled: ${detail}` };
    case 'TIMEOUT':
      return { code, message: `The site did not respond in time: ${detail}` };
    default:
      return { code, message: detail };
  }
}

export function decideFailure(err: unknown, ctx: FailureContext): FailureDecision {
  if (ctx.gone) return { kind: 'gone' };
  if (isCrawlError(err) && err.code !== 'CANCELLED') {
    return { kind: 'site', error: siteError(err.code, err.message) };
  }
  if (ctx.stopping) return { kind: 'requeue' };
  return ctx.finalAttempt ? { kind: 'internal', error: INTERNAL_ERROR } : { kind: 'retry' };
}
