import { isCrawlError } from '@app/crawler';
import type { JobError } from '@app/jobs';

/** What the processor does with an error of one attempt. */
export type FailureDecision =
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

export interface FailureContext {
  /** A progress write found the row no longer running. */
  gone: boolean;
  /** The worker is closing (SIGTERM). */
  stopping: boolean;
  /** This attempt is the job's last one. */
  finalAttempt: boolean;
}

export const INTERNAL_ERROR: JobError = {
  code: 'INTERNAL_ERROR',
  message:
    'The audit failed because of an internal error. The crawl was not counted; please retry.',
};

export const DEADLINE_EXCEEDED: JobError = {
  code: 'DEADLINE_EXCEEDED',
  message: 'The audit did not finish in time. The crawl was not counted; please retry.',
};

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
