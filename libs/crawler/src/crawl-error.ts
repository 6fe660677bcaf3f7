/** Why a crawl (or a single fetch) could not proceed. */
export type CrawlErrorCode =
  'UNREACHABLE' | 'PRIVATE_ADDRESS' | 'INVALID_URL' | 'TIMEOUT' | 'CANCELLED';

/**
 * Thrown by runAudit when the START page cannot be fetched at all (DNS failure, connection
 * refused, private address not allowed, timeout, cancelled) and by assertPublicHost.
 * Failures of later pages never throw: they become findings (rule fetch_failed).
 */
export class CrawlError extends Error {
  constructor(
    public readonly code: CrawlErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CrawlError';
  }
}

export function isCrawlError(err: unknown): err is CrawlError {
  return err instanceof CrawlError;
}
