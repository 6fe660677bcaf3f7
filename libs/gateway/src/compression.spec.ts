import http from 'node:http';
import { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import express from 'express';
import { answerCompression, negotiateEncoding } from './compression';

const BIG = JSON.stringify({
  items: Array.from({ length: 200 }, (_, i) => ({ i, name: `n${i}` })),
});

/** An Express app with the middleware in front of a few answers that must not be compressed. */
function app(): express.Express {
  const a = express();
  a.use(answerCompression(/^\/api\//));
  a.get('/json', (_req, res) => {
    res.type('application/json').send(BIG);
  });
  a.get('/api/json', (_req, res) => {
    res.type('application/json').send(BIG);
  });
  a.get('/encoded', (_req, res) => {
    res.setHeader('Content-Encoding', 'br');
    res.type('text/css').end(zlib.brotliCompressSync(Buffer.from(BIG)));
  });
  a.get('/streamed', (_req, res) => {
    res.type('application/json');
    res.write(BIG.slice(0, 2000));
    setTimeout(() => res.end(BIG.slice(2000)), 5);
  });
  a.get('/written-head', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(BIG);
  });
  a.get('/no-content', (_req, res) => {
    res.status(204).end();
  });
  a.get('/events', (_req, res) => {
    res.type('text/event-stream').end(BIG);
  });
  a.get('/binary', (_req, res) => {
    res.type('image/png').end(Buffer.alloc(4096));
  });
  return a;
}

function get(
  port: number,
  path: string,
  headers: Record<string, string> = { 'Accept-Encoding': 'gzip, br' },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ port, path, headers, host: '127.0.0.1' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

describe('answerCompression', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer(app());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('compresses a one-piece JSON answer with brotli when asked', async () => {
    const res = await get(port, '/json');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(BIG);
  });

  it('adds Vary outside the skipped prefix even when not asked; inside it, does nothing', async () => {
    const plain = await get(port, '/json', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const api = await get(port, '/api/json', {});
    expect(api.headers.vary).toBeUndefined();
    const asked = await get(port, '/api/json', { 'Accept-Encoding': 'gzip' });
    expect(asked.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(asked.body).toString()).toBe(BIG);
  });

  it('leaves an answer that carries its own Content-Encoding as it is', async () => {
    const res = await get(port, '/encoded');
    expect(res.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(BIG);
  });

  it('never holds back a streamed answer, nor one whose head was written first', async () => {
    for (const path of ['/streamed', '/written-head']) {
      const res = await get(port, path);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.toString()).toBe(BIG);
    }
  });

  it('skips 204, event streams and binary types', async () => {
    expect((await get(port, '/no-content')).headers['content-encoding']).toBeUndefined();
    expect((await get(port, '/events')).headers['content-encoding']).toBeUndefined();
    expect((await get(port, '/binary')).headers['content-encoding']).toBeUndefined();
  });
});

describe('negotiateEncoding', () => {
  it.each([
    [undefined, null],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip;q=0.8, br;q=0.1', 'br'],
    ['br;q=0, gzip;q=0.001', 'gzip'],
    ['br;q=0.000, gzip;q=0', null],
    ['gzip;q=2', null],
    ['*;q=0.5', 'br'],
    ['identity;q=1, *;q=0', null],
  ])('%s → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});
