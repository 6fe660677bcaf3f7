import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the receiver does with one request: answer a status, or never answer (timeout). */
export type Behaviour = number | 'hang';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  answered: Behaviour;
}

/** A webhook receiver on 127.0.0.1: per path, a script of answers (the last one repeats). */
export async function startReceiver() {
  const scripts = new Map<string, Behaviour[]>();
  const received = new Map<string, Received[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const script = scripts.get(path) ?? [200];
      const seen = received.get(path) ?? [];
      const answer = script[Math.min(seen.length, script.length - 1)];
      seen.push({
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        answered: answer,
      });
      received.set(path, seen);
      if (answer === 'hang') return; // never answers: the sender times out
      res.statusCode = answer;
      res.end('x'.repeat(10_000)); // a large answer: the sender reads a few KB at most
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let n = 0;
  return {
    /** A new endpoint URL answering `script` in order. */
    endpoint(script: Behaviour[]): string {
      const path = `/hook-${++n}`;
      scripts.set(path, script);
      return origin + path;
    },
    received: (url: string) => received.get(new URL(url).pathname) ?? [],
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * Standard Webhooks verification written here from the published scheme, independently of the
 * service's code: HMAC-SHA256 over `${id}.${timestamp}.${body}` keyed with the base64-decoded
 * secret after `whsec_`; the header holds space-separated `v1,<base64>` signatures.
 */
export function verifies(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.${body}`)
    .digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((part) => {
      const [version, sig] = part.split(',');
      const given = Buffer.from(sig ?? '', 'base64');
      return (
        version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected)
      );
    });
}

/** Polls `read` until `done` holds (every 50 ms, at most `timeoutMs`). */
export async function until<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  timeoutMs = 15_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
