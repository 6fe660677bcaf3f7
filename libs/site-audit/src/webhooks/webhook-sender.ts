import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import { AddressPolicy, canonicalHostname, createGuardedLookup } from '@app/crawler';

/** At most this much of a receiver's answer is read (then the socket is dropped). */
const MAX_RESPONSE_BYTES = 4096;

interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Checked on the addresses the socket really uses (connect time, DNS-rebinding safe). */
  policy: AddressPolicy;
}

/** What one attempt got: the status code, or why there was none. */
type WebhookResponse = { status: number } | { error: string };

/**
 * One POST of a webhook with node:http(s): the address guard runs inside the socket's lookup
 * (and on IP literals before connecting), redirects are not followed (a 3xx is just a
 * non-2xx answer), the whole attempt is bounded by `timeoutMs`, and at most 4 KiB of the
 * answer is read. Never throws.
 */
export function postWebhook(req: WebhookRequest): Promise<WebhookResponse> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return Promise.resolve({ error: 'invalid URL' });
  }
  const isHttps = url.protocol === 'https:';
  if (!isHttps && url.protocol !== 'http:') return Promise.resolve({ error: 'unsupported scheme' });
  let host: string;
  try {
    host = canonicalHostname(url.hostname);
  } catch {
    return Promise.resolve({ error: 'invalid host name' });
  }
  if (net.isIP(host) !== 0 && !req.policy(host, host))
    return Promise.resolve({ error: 'refused: non-public address' });

  return new Promise<WebhookResponse>((resolve) => {
    let settled = false;
    const finish = (result: WebhookResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
      request.destroy();
    };
    const payload = Buffer.from(req.body, 'utf8');
    const request = (isHttps ? https : http).request(url, {
      method: 'POST',
      headers: { ...req.headers, 'content-length': String(payload.length) },
      agent: false, // one connection per attempt: nothing pooled across receivers
      lookup: createGuardedLookup(req.policy) as unknown as net.LookupFunction,
    });
    const timer = setTimeout(() => finish({ error: 'timeout' }), req.timeoutMs);
    request.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_RESPONSE_BYTES) finish({ status });
      });
      res.on('end', () => finish({ status }));
      res.on('error', () => finish({ status }));
    });
    request.on('error', (err: NodeJS.ErrnoException & { code?: string }) => {
      const code = err.code ?? err.name;
      finish({
        error:
          code === 'PRIVATE_ADDRESS' || err.name === 'CrawlError'
            ? 'refused: non-public address'
            : `connection failed (${code ?? 'error'})`,
      });
    });
    request.end(payload);
  });
}
