import type { Params } from 'nestjs-pino';
import pino from 'pino';
import pinoPretty from 'pino-pretty';
import type { AppConfig } from '@app/core';

/** Query parameter names whose values never reach a log (compared decoded, lower-cased, without `[...]`). */
const SECRET_NAMES = new Set([
  'api_key',
  'apikey',
  'key',
  'token',
  'access_token',
  'client_secret',
  'password',
  // An OAuth authorization code and its state (Google's answer on /account/gsc/callback).
  'code',
  'state',
]);
/** A parameter name after any of the separators a client or a parser might honour. */
const PARAM_NAME = /[?&;#]([^=&;#?]*)=/g;

/** Decoded repeatedly (double encoding) but boundedly; a malformed escape leaves the rest as is. */
function decodeRepeatedly(raw: string): string {
  let text = raw;
  for (let i = 0; i < 3 && text.includes('%'); i++) {
    try {
      const next = decodeURIComponent(text);
      if (next === text) break;
      text = next;
    } catch {
      break;
    }
  }
  return text;
}

function decodeName(raw: string): string {
  return decodeRepeatedly(raw.replace(/\+/g, ' ')).replace(/\[.*$/s, '').trim().toLowerCase();
}

/**
 * The text with its ASCII percent-escapes decoded, three times over (`%255F` → `_`). Keys
 * and audit ids are ASCII, and unlike decodeURIComponent this never gives up on the whole
 * text for one malformed escape elsewhere in it.
 */
function asciiDecoded(raw: string): string {
  let text = raw;
  for (let i = 0; i < 3 && text.includes('%'); i++) {
    text = text.replace(/%([0-7][0-9A-Fa-f])/g, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
  }
  return text;
}

/**
 * What may hold a key-shaped value or an audit id, raw or percent-encoded: most URLs (no
 * `seo`, no `aud`, no `%`) are left after this one test, so the request path pays nothing more.
 */
const MAY_HOLD_SECRET = /seo|aud|%/i;
/** A URL's parts between its separators: path segments, query names and values. */
const URL_PART = /[^/?&;#=]+/g;
/**
 * An API key's shape (libs/accounts api-key-secret.ts: `seo_live_` + 43 base64url characters;
 * `seo_test_` too, the test-mode prefix should one come), in any case, however short or long:
 * a key pasted into a path or a value.
 */
const KEY_SHAPED = /seo_(?:live|test)_/i;
/** An audit id (`aud_` + 22 base62 characters, the only access control of its report). */
const AUDIT_ID = /aud_([0-9A-Za-z]{4})[0-9A-Za-z]{18,}/g;

/**
 * A URL part (path segment, query name or value) fit for a log or a message: a part that
 * holds a key-shaped value, raw or percent-encoded (even twice), is replaced whole; an audit
 * id keeps its first four characters (`aud_AbCd[REDACTED]`), enough to tell reports apart.
 */
function redactPart(part: string): string {
  const plain = part.includes('%') ? asciiDecoded(part) : part;
  if (KEY_SHAPED.test(plain)) return '[REDACTED]';
  AUDIT_ID.lastIndex = 0;
  if (!AUDIT_ID.test(plain)) return part;
  return plain.replace(AUDIT_ID, 'aud_$1[REDACTED]');
}

/**
 * The URL with secret query values replaced, for logs. Works on every spelling a parser
 * might read as a secret: percent-encoded names (`api%5Fkey`), array forms (`api_key[]`),
 * mixed case, and `;`, `#` or a second `?` as separators. Any value equal to one of
 * `secrets` (e.g. the key the auth guard extracted) is replaced wherever it appears. Any
 * path segment or query part that holds a key-shaped value (`seo_live_…`, `seo_test_…`,
 * also percent-encoded) is replaced whole, and an audit id keeps only its first four
 * characters (`/reports/audits/aud_AbCd[REDACTED]`), so neither reaches a log or a message.
 */
export function redactUrl(
  url: string | undefined,
  secrets: ReadonlyArray<string | null | undefined> = [],
): string {
  let out = url ?? '';
  const start = out.search(/[?;#]/);
  if (start >= 0) {
    const tail = out.slice(start);
    let redacted = '';
    let copied = 0;
    for (const m of tail.matchAll(PARAM_NAME)) {
      const valueStart = (m.index ?? 0) + m[0].length;
      if (valueStart < copied || !SECRET_NAMES.has(decodeName(m[1]))) continue;
      // The value runs to the next separator; a `?` inside it is still part of the value.
      const end = tail.slice(valueStart).search(/[&;#]/);
      const valueEnd = end < 0 ? tail.length : valueStart + end;
      redacted += tail.slice(copied, valueStart) + '[REDACTED]';
      copied = valueEnd;
    }
    out = out.slice(0, start) + redacted + tail.slice(copied);
  }
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < 8) continue;
    // On the request path: the common case (the key came in a header) only scans the URL.
    if (out.includes(secret)) out = out.split(secret).join('[REDACTED]');
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join('[REDACTED]');
  }
  return MAY_HOLD_SECRET.test(out) ? out.replace(URL_PART, redactPart) : out;
}

let rootLogger: pino.Logger | undefined;
let destination: (pino.DestinationStream & { flushSync?: () => void }) | undefined;

/**
 * The process's one pino logger: JSON lines on stdout (LOG_FORMAT=json, the default; with
 * LOG_FORMAT=pretty readable one-line entries through pino-pretty), ISO timestamps, written
 * asynchronously in 4 KiB chunks (synchronous writes cost the request path noticeably under
 * load), written out at least every second, and flushed on shutdown and exit.
 */
export function rootLoggerFor(config: AppConfig): pino.Logger {
  if (!rootLogger && config.logFormat === 'pretty') {
    // LOG_FORMAT=pretty (what `npm start` uses): one readable line per entry, written as it
    // comes (a local run, not a loaded server). Same logger, same fields, same redaction.
    rootLogger = pino(
      { level: config.logLevel, timestamp: pino.stdTimeFunctions.isoTime },
      pinoPretty({
        singleLine: true,
        colorize: process.stdout.isTTY === true,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
      }),
    );
  }
  if (!rootLogger) {
    const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
    destination = stream;
    // A quiet process (the worker) must not hold lines back: write out at least every second.
    setInterval(() => {
      try {
        stream.flush();
      } catch {
        // a write is still in flight; the next tick writes it out
      }
    }, 1000).unref();
    process.once('beforeExit', flushLogs);
    process.once('exit', flushLogs);
    rootLogger = pino({ level: config.logLevel, timestamp: pino.stdTimeFunctions.isoTime }, stream);
  }
  return rootLogger;
}

/** nestjs-pino provides Nest's logger on our root logger; request lines come from the gateway's requestLifecycle(). */
export function loggerParams(config: AppConfig): Params {
  return { pinoHttp: { logger: rootLoggerFor(config) }, forRoutes: [] };
}

/** Writes out whatever the log buffer holds (graceful shutdown). */
export function flushLogs(): void {
  try {
    destination?.flushSync?.();
  } catch {
    // stdout closed, or a write still in flight: nothing more can be done
  }
}
