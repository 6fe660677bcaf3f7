import zlib from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';

/**
 * Compressed answers (docs/decisions/0006-compression.md): gzip or brotli when the client
 * asks for it with Accept-Encoding, for answers of at least COMPRESS_MIN_BYTES of a textual
 * type, written in one piece. Streaming answers (anything written before `end`, including
 * a `writeHead` first), answers that already carry a Content-Encoding, 204/304/1xx and HEAD
 * are sent as they are.
 */

/** Below this an answer is sent as it is: compressing it saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;
/** Above this an answer is compressed on the thread pool instead of the event loop. */
const SYNC_MAX_BYTES = 256 * 1024;

export type AnswerEncoding = 'br' | 'gzip';

/** Brotli tuned for dynamic answers: quality 4 is ~gzip's size at a fraction of its time. */
const BROTLI_QUALITY = 4;
/** gzip level for dynamic answers. */
const GZIP_LEVEL = 5;

const brotliOptions = (size: number, finishFlush?: number): zlib.BrotliOptions => ({
  ...(finishFlush === undefined ? {} : { finishFlush }),
  params: {
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
  },
});

const negotiated = new Map<string, AnswerEncoding | null>();
const NEGOTIATED_MAX = 256;

/**
 * The encoding to answer with for an Accept-Encoding header: `br` whenever brotli is
 * acceptable (q > 0, named or by `*`), else `gzip` (or `x-gzip`) when acceptable, else none.
 * `q=0` refuses an encoding. Results are remembered for the few header values clients send.
 */
export function negotiateEncoding(header: string | undefined): AnswerEncoding | null {
  if (!header) return null;
  const known = negotiated.get(header);
  if (known !== undefined) return known;
  const chosen = parseAcceptEncoding(header);
  if (negotiated.size < NEGOTIATED_MAX) negotiated.set(header, chosen);
  return chosen;
}

function parseAcceptEncoding(header: string): AnswerEncoding | null {
  let br: number | undefined;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of header.split(',')) {
    const [token, ...params] = part.split(';');
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*(\S*)\s*$/i.exec(param);
      if (m) {
        const value = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(m[1]) ? Number(m[1]) : 0;
        q = value;
      }
    }
    const name = token.trim().toLowerCase();
    if (name === 'br') br = q;
    else if (name === 'gzip' || name === 'x-gzip') gzip = q;
    else if (name === '*') any = q;
  }
  if ((br ?? any ?? 0) > 0) return 'br';
  if ((gzip ?? any ?? 0) > 0) return 'gzip';
  return null;
}

const COMPRESSIBLE =
  /^\s*(text\/(?!event-stream)|application\/(json|javascript|xml|problem\+json|[^;\s]*\+(json|xml))|image\/svg\+xml)/i;

/** Whether an answer of this Content-Type is worth compressing (text, JSON, HTML, JS, SVG). */
export function compressibleType(type: unknown): boolean {
  return typeof type === 'string' && COMPRESSIBLE.test(type);
}

/** Adds `Accept-Encoding` to the answer's Vary header (once). */
export function varyOnEncoding(res: Response): void {
  const vary = res.getHeader('Vary');
  if (vary === undefined) {
    res.setHeader('Vary', 'Accept-Encoding');
    return;
  }
  const value = Array.isArray(vary) ? vary.join(', ') : String(vary);
  if (value.trim() === '*' || /(^|,)\s*accept-encoding\s*(,|$)/i.test(value)) return;
  res.setHeader('Vary', `${value}, Accept-Encoding`);
}

/**
 * Where the envelope writer placed a kept RawJson in the answer it passes to `res.end`
 * (`bytes` = head + raw + tail): the compressed form of head + raw is kept with `raw` and
 * only the tail (meta: timestamp, request id) is added per request.
 */
interface Placement {
  bytes: Buffer;
  raw: Buffer;
  at: number;
}
const PLACEMENT = Symbol('answerPlacement');
type PlacedResponse = Response & { [PLACEMENT]?: Placement };

/** Called by the envelope writer before `res.end(bytes)`: see Placement. */
export function placeKept(res: Response, bytes: Buffer, raw: Buffer, at: number): void {
  if (raw.length >= COMPRESS_MIN_BYTES) (res as PlacedResponse)[PLACEMENT] = { bytes, raw, at };
}

/**
 * The compressed head + raw of a kept answer, per encoding, as a stream that is flushed
 * (byte-aligned, every byte decodable) but not finished, so the tail can follow it.
 */
interface CompressedPrefix {
  head: Buffer;
  data: Buffer;
  /** gzip: CRC-32 and length of head + raw. */
  crc: number;
  length: number;
}
const keptPrefixes = new WeakMap<Buffer, Partial<Record<AnswerEncoding, CompressedPrefix>>>();

/** Counts of compressions, for tests and the bench: full, prefix (kept answers), reused. */
export const compressionCounts = { full: 0, prefix: 0, reused: 0 };

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
const STORED_MAX = 0xffff;
const BROTLI_UNCOMPRESSED_MAX = 0x10000;

function prefixOf(placed: Placement, encoding: AnswerEncoding): CompressedPrefix {
  const head = placed.bytes.subarray(0, placed.at);
  let byEncoding = keptPrefixes.get(placed.raw);
  const kept = byEncoding?.[encoding];
  if (kept && kept.head.equals(head)) {
    compressionCounts.reused++;
    return kept;
  }
  const upTo = placed.bytes.subarray(0, placed.at + placed.raw.length);
  compressionCounts.prefix++;
  const prefix: CompressedPrefix =
    encoding === 'br'
      ? {
          head: Buffer.from(head),
          data: zlib.brotliCompressSync(
            upTo,
            brotliOptions(upTo.length, zlib.constants.BROTLI_OPERATION_FLUSH),
          ),
          crc: 0,
          length: upTo.length,
        }
      : {
          head: Buffer.from(head),
          data: zlib.deflateRawSync(upTo, {
            level: GZIP_LEVEL,
            finishFlush: zlib.constants.Z_SYNC_FLUSH,
          }),
          crc: zlib.crc32(upTo),
          length: upTo.length,
        };
  if (!byEncoding) keptPrefixes.set(placed.raw, (byEncoding = {}));
  byEncoding[encoding] = prefix;
  return prefix;
}

/**
 * A kept prefix followed by the tail sent uncompressed (a stored deflate block; an
 * uncompressed brotli meta-block), then the stream's end: valid gzip / brotli, decoded by
 * any client. The tail is the envelope's meta, about 100 bytes. Null when the tail is too
 * long for this framing (never for our envelopes).
 */
function withTail(prefix: CompressedPrefix, tail: Buffer, encoding: AnswerEncoding): Buffer | null {
  if (encoding === 'gzip') {
    if (tail.length > STORED_MAX) return null;
    const block = Buffer.allocUnsafe(5);
    block[0] = 0x01; // BFINAL = 1, BTYPE = 00 (stored), already byte-aligned after the sync flush
    block.writeUInt16LE(tail.length, 1);
    block.writeUInt16LE(~tail.length & 0xffff, 3);
    const trailer = Buffer.allocUnsafe(8);
    trailer.writeUInt32LE(zlib.crc32(tail, prefix.crc) >>> 0, 0);
    trailer.writeUInt32LE((prefix.length + tail.length) >>> 0, 4);
    return Buffer.concat([GZIP_HEADER, prefix.data, block, tail, trailer]);
  }
  if (tail.length > BROTLI_UNCOMPRESSED_MAX) return null;
  const parts = [prefix.data];
  if (tail.length > 0) {
    // ISLAST = 0, MNIBBLES = 4 (code 0), MLEN - 1 in 16 bits, ISUNCOMPRESSED = 1, padding.
    const header = ((tail.length - 1) << 3) | (1 << 19);
    parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), tail);
  }
  parts.push(Buffer.from([0x03])); // ISLAST = 1, ISLASTEMPTY = 1
  return Buffer.concat(parts);
}

function compressSync(body: Buffer, encoding: AnswerEncoding): Buffer {
  compressionCounts.full++;
  return encoding === 'br'
    ? zlib.brotliCompressSync(body, brotliOptions(body.length))
    : zlib.gzipSync(body, { level: GZIP_LEVEL });
}

function compressAsync(
  body: Buffer,
  encoding: AnswerEncoding,
  done: (err: Error | null, out: Buffer) => void,
): void {
  compressionCounts.full++;
  if (encoding === 'br') zlib.brotliCompress(body, brotliOptions(body.length), done);
  else zlib.gzip(body, { level: GZIP_LEVEL }, done);
}

type End = Response['end'];

/**
 * The middleware: for a request that asks for gzip or brotli (or any request whose URL does
 * not match `skipUnasked`: there the writers below set Vary themselves), `res.end` compresses
 * an answer sent in one piece. Requests under `skipUnasked` that do not ask pay nothing.
 */
export function answerCompression(skipUnasked: RegExp) {
  const prepare = compressingEnd(skipUnasked);
  return (req: Request, res: Response, next: NextFunction): void => {
    prepare(req, res);
    next();
  };
}

/**
 * What `answerCompression` does to a request, as a function the request lifecycle middleware
 * calls (`requestLifecycle(…, prepare)`), so that it costs no Express layer of its own.
 */
export function compressingEnd(skipUnasked: RegExp) {
  return (req: Request, res: Response): void => {
    const encoding =
      req.method === 'HEAD' ? null : negotiateEncoding(req.headers['accept-encoding']);
    if (encoding === null && (req.method === 'HEAD' || skipUnasked.test(req.url))) return;
    const end = res.end as (...args: unknown[]) => Response;
    res.end = function compressingEnd(this: Response, ...args: unknown[]): Response {
      const [chunk, second, third] = args;
      if (
        chunk === undefined ||
        chunk === null ||
        typeof chunk === 'function' ||
        res.headersSent ||
        res.statusCode < 200 ||
        res.statusCode === 204 ||
        res.statusCode === 304 ||
        res.hasHeader('Content-Encoding') ||
        !compressibleType(res.getHeader('Content-Type'))
      )
        return end.apply(this, args);
      const body =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof second === 'string' ? (second as BufferEncoding) : 'utf8')
          : Buffer.isBuffer(chunk)
            ? chunk
            : chunk instanceof Uint8Array
              ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
              : null;
      if (body === null || body.length < COMPRESS_MIN_BYTES) return end.apply(this, args);
      varyOnEncoding(res);
      if (encoding === null) return end.apply(this, args);
      const callback = typeof second === 'function' ? second : third;
      const send = (out: Buffer): Response => {
        res.setHeader('Content-Encoding', encoding);
        res.setHeader('Content-Length', out.length);
        return callback === undefined ? end.call(this, out) : end.call(this, out, callback);
      };
      const placed = (res as PlacedResponse)[PLACEMENT];
      if (placed && placed.bytes === body) {
        const prefix = prefixOf(placed, encoding);
        const out = withTail(prefix, body.subarray(placed.at + placed.raw.length), encoding);
        if (out) return send(out);
      }
      if (body.length <= SYNC_MAX_BYTES) return send(compressSync(body, encoding));
      compressAsync(body, encoding, (err, out) => {
        if (err) end.apply(this, args);
        else send(out);
      });
      return res;
    } as End;
  };
}
