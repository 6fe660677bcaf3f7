import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import * as zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import { type AddressPolicy, canonicalHostname, createGuardedLookup } from './address-guard';
import { CrawlError, isCrawlError } from './crawl-error';

interface FetcherOptions {
  userAgent: string;
  policy: AddressPolicy;
  timeoutMs: number;
  maxBodyBytes: number;
  concurrency: number;
  tlsCa?: string;
}

export interface FetchResult {
  url: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Raw Location header of a 3xx response, else null. */
  location: string | null;
  /** Media type without parameters, lowercased, or null. */
  contentType: string | null;
  /** Decoded text of the body when it was read, else null. */
  text: string | null;
  /** Decompressed body bytes read (or the declared Content-Length when the body was skipped). */
  bytes: number;
  truncated: boolean;
  elapsedMs: number;
}

const NETWORK_CODES: Record<string, string> = {
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
};

function toCrawlError(err: unknown): CrawlError {
  if (isCrawlError(err)) return err;
  const e = err as NodeJS.ErrnoException;
  const what = (e?.code && NETWORK_CODES[e.code]) || e?.message || String(err);
  if (e?.code === 'ETIMEDOUT') return new CrawlError('TIMEOUT', 'connection timed out');
  return new CrawlError('UNREACHABLE', e?.code ? `${what} (${e.code})` : what);
}

function decoderFor(
  encoding: string | undefined,
): zlib.Gunzip | zlib.BrotliDecompress | zlib.Unzip | null {
  const enc = (encoding ?? '').trim().toLowerCase();
  if (enc === 'gzip' || enc === 'x-gzip') return zlib.createGunzip();
  if (enc === 'deflate') return zlib.createUnzip(); // zlib-wrapped deflate (what servers send)
  if (enc === 'br') return zlib.createBrotliDecompress();
  return null;
}

function charsetOf(contentTypeHeader: string | undefined, head: Buffer): string {
  const m = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentTypeHeader ?? '');
  if (m) return m[1].toLowerCase();
  const meta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(
    head.subarray(0, 1024).toString('latin1'),
  );
  return meta ? meta[1].toLowerCase() : 'utf-8';
}

/** WHATWG windows-1252 for 0x80-0x9F (Node's decoder drops these bytes); also used for latin1 labels. */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const CP1252_LABELS = new Set([
  'windows-1252',
  'cp1252',
  'x-cp1252',
  'iso-8859-1',
  'iso8859-1',
  'latin1',
  'l1',
  'us-ascii',
  'ascii',
  'iso_8859-1',
]);

function decodeText(body: Buffer, contentTypeHeader: string | undefined): string {
  const charset = charsetOf(contentTypeHeader, body);
  if (CP1252_LABELS.has(charset)) {
    return body
      .toString('latin1')
      .replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]);
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(body);
}

/** The absolute http(s) URL to fetch; INVALID_URL for anything else. */
function parseHttpUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new CrawlError('INVALID_URL', `invalid URL: ${url}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new CrawlError('INVALID_URL', `unsupported scheme: ${u.protocol}`);
  return u;
}

/** What is known of a response before its body: status, headers, redirect target, media type. */
type ResponseHead = Pick<FetchResult, 'url' | 'status' | 'headers' | 'location' | 'contentType'>;
/** What reading (or skipping) the body gave. */
type BodyOutcome = Pick<FetchResult, 'text' | 'bytes' | 'truncated'>;

function responseHead(url: string, res: http.IncomingMessage): ResponseHead {
  const status = res.statusCode ?? 0;
  const ctHeader = res.headers['content-type'];
  const contentType = ctHeader ? ctHeader.split(';')[0].trim().toLowerCase() || null : null;
  return {
    url,
    status,
    headers: res.headers,
    location:
      status >= 300 && status < 400 && res.headers.location ? String(res.headers.location) : null,
    contentType,
  };
}

/**
 * Leaves a redirect's or unwanted body unread: small ones (declared ≤ 64 KiB) are drained to
 * keep the socket, the rest destroyed. `bytes` is the declared Content-Length.
 */
function discardBody(res: http.IncomingMessage, done: (body: BodyOutcome) => void): void {
  const declared = Number(res.headers['content-length'] ?? '');
  const bytes = Number.isFinite(declared) ? declared : 0;
  const skipped = () => done({ text: null, bytes, truncated: false });
  if (Number.isFinite(declared) && declared <= 64 * 1024) {
    res.on('end', skipped);
    res.on('error', skipped);
    res.resume();
  } else {
    res.destroy();
    skipped();
  }
}

/**
 * Reads the decompressed body up to `maxBytes` (then truncates and closes) and decodes it as
 * text. A broken compressed stream or a reset mid-body keeps what was decoded; `done` may be
 * called more than once (the caller settles once).
 */
function readTextBody(
  res: http.IncomingMessage,
  maxBytes: number,
  done: (err: unknown, body?: BodyOutcome) => void,
): void {
  const decoder = decoderFor(res.headers['content-encoding'] as string | undefined);
  const stream: Readable = decoder ? res.pipe(decoder) : res;
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const complete = () => {
    const body = Buffer.concat(chunks, size);
    done(null, { text: decodeText(body, res.headers['content-type']), bytes: size, truncated });
  };
  stream.on('data', (chunk: Buffer) => {
    if (truncated) return;
    const room = maxBytes - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      size += room;
      truncated = true;
      res.destroy();
      if (decoder) decoder.destroy();
      complete();
      return;
    }
    chunks.push(chunk);
    size += chunk.length;
  });
  stream.on('end', complete);
  stream.on('error', (err) => (size > 0 ? complete() : done(err)));
  res.on('error', (err) => (size > 0 ? complete() : done(err)));
  res.on('aborted', () =>
    size > 0 ? complete() : done(new CrawlError('UNREACHABLE', 'connection aborted')),
  );
}

/**
 * One HTTP GET with node:http/https (no redirect following: the caller follows and re-checks
 * every hop). The SSRF policy is applied to IP-literal hosts before connecting and to resolved
 * names inside the socket's `lookup`, i.e. at connect time.
 */
export class HttpFetcher {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly lookup: ReturnType<typeof createGuardedLookup>;

  constructor(private readonly opts: FetcherOptions) {
    const sockets = Math.max(2, opts.concurrency + 2);
    this.httpAgent = new http.Agent({
      keepAlive: true,
      maxSockets: sockets,
      maxFreeSockets: sockets,
    });
    this.httpsAgent = new https.Agent({
      keepAlive: true,
      maxSockets: sockets,
      maxFreeSockets: sockets,
    });
    this.lookup = createGuardedLookup(opts.policy);
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /**
   * `readBody(contentType)` decides whether the body is read (and decoded as text);
   * other bodies are discarded unread.
   */
  async get(
    url: string,
    readBody: (contentType: string | null) => boolean,
    signal?: AbortSignal,
    maxBytes: number = this.opts.maxBodyBytes,
    method: 'GET' | 'HEAD' = 'GET',
  ): Promise<FetchResult> {
    const u = parseHttpUrl(url);
    this.assertPublicIpLiteral(u);
    if (signal?.aborted) throw new CrawlError('CANCELLED', 'cancelled');
    const started = performance.now();
    return new Promise<FetchResult>((resolve, reject) => {
      let settled = false;
      const finish = (err: unknown, value?: FetchResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(toCrawlError(err));
        else resolve(value as FetchResult);
      };
      const req = this.send(u, method, (res) => {
        const head = responseHead(url, res);
        const settle = (err: unknown, body?: BodyOutcome) =>
          body === undefined
            ? finish(err)
            : finish(null, { ...head, ...body, elapsedMs: performance.now() - started });
        if (head.location || !readBody(head.contentType)) discardBody(res, (b) => settle(null, b));
        else readTextBody(res, maxBytes, settle);
      });
      const timer = setTimeout(() => {
        finish(new CrawlError('TIMEOUT', `no complete response within ${this.opts.timeoutMs} ms`));
        req.destroy();
      }, this.opts.timeoutMs);
      const onAbort = () => {
        finish(new CrawlError('CANCELLED', 'cancelled'));
        req.destroy();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err) => finish(err));
      req.end();
    });
  }

  /** net.connect never calls `lookup` for IP literals, so they are checked here. */
  private assertPublicIpLiteral(u: URL): void {
    const host = canonicalHostname(u.hostname);
    if (net.isIP(host) !== 0 && !this.opts.policy(host, host)) {
      throw new CrawlError('PRIVATE_ADDRESS', `${host} is not a public address`);
    }
  }

  /** Starts the GET (through the keep-alive agent and the guarded lookup); call `end()` to send. */
  private send(
    u: URL,
    method: 'GET' | 'HEAD',
    onResponse: (res: http.IncomingMessage) => void,
  ): http.ClientRequest {
    const isHttps = u.protocol === 'https:';
    const requestOptions: https.RequestOptions = {
      method,
      headers: {
        'user-agent': this.opts.userAgent,
        accept: 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
      },
      agent: isHttps ? this.httpsAgent : this.httpAgent,
      lookup: this.lookup as unknown as net.LookupFunction,
    };
    if (isHttps && this.opts.tlsCa) requestOptions.ca = this.opts.tlsCa;
    return (isHttps ? https : http).request(u, requestOptions, onResponse);
  }
}
