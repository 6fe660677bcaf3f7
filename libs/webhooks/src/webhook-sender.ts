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
export type WebhookResponse = { status: number } | { error: string };

/**
 * One POST of a webhook with node:http(s): the address guard runs inside the socket's lookup
 * (and on IP literals before connecting), redirects are not followed (a 3xx is just a
 * non-2xx answer), the whole attempt is bounded by `timeoutMs`, and at most 4 KiB of the
 * answer is read. Never throws.
 */
export function postWebhook(req: WebhookRequest): Promise<WebhookResponse> {
  const target = targetOf(req);
  return 'error' in target ? Promise.resolve(target) : send(target.url, req);
}

/** The URL to post to, or why there is none: not a URL, not http(s), a refused IP literal. */
function targetOf(req: WebhookRequest): { url: URL } | { error: string } {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return { error: 'invalid URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { error: 'unsupported scheme' };
  let host: string;
  try {
    host = canonicalHostname(url.hostname);
  } catch {
    return { error: 'invalid host name' };
  }
  if (net.isIP(host) !== 0 && !req.policy(host, host)) {
    return { error: 'refused: non-public address' };
  }
  return { url };
}

/** The request itself: settles once, on the answer's status, an error or the timeout. */
function send(url: URL, req: WebhookRequest): Promise<WebhookResponse> {
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
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { ...req.headers, 'content-length': String(payload.length) },
      agent: false, // one connection per attempt: nothing pooled across receivers
      lookup: createGuardedLookup(req.policy) as unknown as net.LookupFunction,
    });
    const timer = setTimeout(() => finish({ error: 'timeout' }), req.timeoutMs);
    request.on('response', (res) => readStatus(res, finish));
    request.on('error', (err: NodeJS.ErrnoException) => finish({ error: failureOf(err) }));
    request.end(payload);
  });
}

/** Reads at most MAX_RESPONSE_BYTES of the answer, then reports its status. */
function readStatus(res: http.IncomingMessage, finish: (result: WebhookResponse) => void): void {
  const status = res.statusCode ?? 0;
  let read = 0;
  res.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read >= MAX_RESPONSE_BYTES) finish({ status });
  });
  res.on('end', () => finish({ status }));
  res.on('error', () => finish({ status }));
}

/** Why a connection failed, as the delivery records it. */
function failureOf(err: NodeJS.ErrnoException): string {
  const code = err.code ?? err.name;
  return code === 'PRIVATE_ADDRESS' || err.name === 'CrawlError'
    ? 'refused: non-public address'
    : `connection failed (${code ?? 'error'})`;
}
