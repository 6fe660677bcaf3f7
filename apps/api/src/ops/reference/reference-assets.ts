import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { negotiateEncoding } from '@app/gateway';

/**
 * The bytes /docs serves: its stylesheet and script (fingerprinted names under
 * /docs/assets/, a year of immutable caching) and the page itself (short-cached), each kept
 * as it is and compressed once at start-up with brotli and gzip. A request gets the
 * compressed bytes its Accept-Encoding allows, with Content-Encoding and
 * Vary: Accept-Encoding, so a generic compression step later in the pipeline leaves it alone.
 */

export const REFERENCE_ASSET_DIR = join(__dirname, 'assets');
export const REFERENCE_ASSET_PREFIX = '/docs/assets/';

/** The page's cache: five minutes (its assets' names change with their content). */
export const PAGE_CACHE = 'public, max-age=300';
export const ASSET_CACHE = 'public, max-age=31536000, immutable';

/**
 * The page's CSP: everything from this origin (scripts and styles as files, no inline code),
 * fetches to this origin only, no framing.
 */
export const REFERENCE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface Encoded {
  type: string;
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export function encode(body: Buffer | string, type: string): Encoded {
  const identity = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const hash = createHash('sha256').update(identity).digest('hex');
  return {
    type,
    etag: `"${hash.slice(0, 32)}"`,
    identity,
    br: brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

/** Sends one encoded body (GET or HEAD), honouring If-None-Match. */
export function sendEncoded(req: Request, res: Response, body: Encoded, cache: string): void {
  // The same negotiation as every other answer (libs/gateway/src/compression.ts).
  const enc = negotiateEncoding(req.headers['accept-encoding']);
  res.setHeader('Content-Type', body.type);
  res.setHeader('Cache-Control', cache);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('ETag', body.etag);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (req.headers['if-none-match'] === body.etag) {
    res.status(304).end();
    return;
  }
  const bytes = enc ? body[enc] : body.identity;
  if (enc) res.setHeader('Content-Encoding', enc);
  res.setHeader('Content-Length', String(bytes.length));
  res.status(200);
  if (req.method === 'HEAD') res.end();
  else res.end(bytes);
}

interface Asset extends Encoded {
  url: string;
}

const TYPES: Readonly<Record<string, string>> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
};

/** reference.css and reference.js, read, hashed and compressed once. */
export class ReferenceAssets {
  private readonly byUrl = new Map<string, Asset>();
  private readonly urls = new Map<string, string>();

  constructor(dir = REFERENCE_ASSET_DIR) {
    for (const name of ['reference.css', 'reference.js']) {
      const body = readFileSync(join(dir, name));
      const ext = name.slice(name.lastIndexOf('.') + 1);
      const encoded = encode(body, TYPES[ext]);
      const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
      const url = `${REFERENCE_ASSET_PREFIX}${name.slice(0, -ext.length - 1)}.${hash}.${ext}`;
      this.byUrl.set(url, { ...encoded, url });
      this.urls.set(name, url);
    }
  }

  url(name: 'reference.css' | 'reference.js'): string {
    return this.urls.get(name)!;
  }

  /** Express middleware serving the assets (mounted at /docs/assets); 404 for another name. */
  handler(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction): void => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      const asset = this.byUrl.get(`${REFERENCE_ASSET_PREFIX}${req.path.replace(/^\//, '')}`);
      if (!asset) return next();
      sendEncoded(req, res, asset, ASSET_CACHE);
    };
  }
}
