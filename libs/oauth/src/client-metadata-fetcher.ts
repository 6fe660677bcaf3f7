import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { HttpFetcher, buildAddressPolicy } from '@app/crawler';

/** A metadata document may be at most this large (bytes). */
export const CLIENT_DOCUMENT_MAX_BYTES = 16 * 1024;
/** Fetching a metadata document may take at most this long. */
export const CLIENT_DOCUMENT_TIMEOUT_MS = 5000;

/**
 * Fetches Client ID Metadata Documents through the crawler's HTTP client and its SSRF guard
 * (private, loopback, link-local and reserved addresses refused, checked at connect time;
 * no redirects followed), size- and time-bounded. Always the strict policy: a client_id URL
 * is chosen by whoever starts an authorization, so AUDIT_ALLOW_PRIVATE_NETWORKS does not
 * apply here.
 */
@Injectable()
export class ClientMetadataFetcher implements OnModuleDestroy {
  private readonly fetcher = new HttpFetcher({
    userAgent: 'SeoApiOAuth/1.0 (client metadata)',
    policy: buildAddressPolicy(false),
    timeoutMs: CLIENT_DOCUMENT_TIMEOUT_MS,
    maxBodyBytes: CLIENT_DOCUMENT_MAX_BYTES,
    concurrency: 4,
  });

  /** The parsed JSON document at `url`, or null (not reachable, refused, not 200, too large, not JSON). */
  async fetch(url: string): Promise<Record<string, unknown> | null> {
    const signal = AbortSignal.timeout(CLIENT_DOCUMENT_TIMEOUT_MS);
    try {
      const res = await this.fetcher.get(url, () => true, signal, CLIENT_DOCUMENT_MAX_BYTES);
      if (res.status !== 200 || res.truncated || res.text === null) return null;
      const doc: unknown = JSON.parse(res.text);
      return doc && typeof doc === 'object' && !Array.isArray(doc)
        ? (doc as Record<string, unknown>)
        : null;
    } catch {
      return null;
    }
  }

  onModuleDestroy(): void {
    this.fetcher.close();
  }
}
