import { Writable } from 'node:stream';
import http from 'node:http';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { requestLifecycle, extractKey, type ApiRequest } from '@app/gateway';
import { AdminClient, bearer } from '../helpers/fixtures';
import { ProbeModule } from '../helpers/probe.module';
import { createTestApp, TestApp } from '../helpers/test-app';

const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const nestedArray = (depth: number) => '['.repeat(depth) + '1' + ']'.repeat(depth);

function expectEnvelope(
  res: {
    status: number;
    body: {
      success?: unknown;
      error?: { code?: unknown; message?: unknown };
      meta?: { timestamp?: unknown };
    };
  },
  status: number,
  code: string,
) {
  expect(res.status).toBe(status);
  expect(res.body.success).toBe(false);
  expect(res.body.error?.code).toBe(code);
  expect(typeof res.body.error?.message).toBe('string');
  expect(typeof res.body.meta?.timestamp).toBe('string');
}

/** Raw HTTP exchange (for requests a client library would refuse to send). */
function raw(url: string, payload: string): Promise<string> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(payload));
    let out = '';
    socket.on('data', (d) => (out += d.toString('utf8')));
    socket.on('end', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('Hostile input: refused with the error envelope and a 4xx, never a 5xx (issue 13)', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp({ imports: [ProbeModule], now: '2026-11-21T10:00:00Z' });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  const used = async (key: string) =>
    (await t.http().get('/api/v1/usage').set(bearer(key))).body.data.api_calls_used as number;

  describe('deeply nested or oversized JSON bodies (refused before the guards: not counted)', () => {
    it.each([
      ['objects, 2,500 levels', nestedObject(2500)],
      ['arrays, 2,500 levels', nestedArray(2500)],
      ['inside a field the whitelist strips', `{"name":"x","count":1,"junk":${nestedArray(2500)}}`],
      ['just over the bound (33 levels)', nestedObject(33)],
    ])('%s → 400 BAD_REQUEST, meter unchanged', async (_label, body) => {
      const acc = await admin.account('pro');
      const res = await t
        .http()
        .post('/api/v1/__probe/research')
        .set(bearer(acc.key))
        .set('Content-Type', 'application/json')
        .send(body);
      expectEnvelope(res, 400, 'BAD_REQUEST');
      expect(res.body.error.message).toMatch(/nested deeper than 32 levels/);
      expect(await used(acc.key)).toBe(1); // only the /usage call itself
    });

    it('a body with too many values → refused before the guards, not counted (413 on a public route: 100,001 values exceed its 100 KB limit)', async () => {
      const acc = await admin.account('pro');
      const res = await t
        .http()
        .post('/api/v1/__probe/research')
        .set(bearer(acc.key))
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: 'x', count: 1, junk: new Array(100_001).fill(0) }));
      expectEnvelope(res, 413, 'PAYLOAD_TOO_LARGE');
      expect(await used(acc.key)).toBe(1);
    });

    it('a body with too many values on the one route that takes 10 MB (admin ingestion) → 400 BAD_REQUEST before validation', async () => {
      const res = await admin.post('/tracked-keywords/1/checks', {
        checks: [],
        junk: new Array(100_001).fill(0),
      });
      expectEnvelope(res, 400, 'BAD_REQUEST');
      expect(res.body.error.message).toMatch(/more than 100000 values/);
    });

    it('a body within the bounds (depth 32 of junk) still reaches validation', async () => {
      const acc = await admin.account('pro');
      const res = await t
        .http()
        .post('/api/v1/__probe/research')
        .set(bearer(acc.key))
        .set('Content-Type', 'application/json')
        .send(`{"name":"x","count":1,"junk":${nestedArray(30)}}`);
      expect(res.status).toBeLessThan(500);
      expect(res.status).not.toBe(400);
    });
  });

  describe('body-parser errors keep their client status (not counted)', () => {
    it('Content-Type charset=latin1 → 415 UNSUPPORTED_MEDIA_TYPE', async () => {
      const acc = await admin.account('pro');
      const res = await t
        .http()
        .post('/api/v1/__probe/research')
        .set(bearer(acc.key))
        .set('Content-Type', 'application/json; charset=latin1')
        .send('{"name":"x","count":1}');
      expectEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(res.body.error?.message).toMatch(/charset/);
      expect(await used(acc.key)).toBe(1);
    });

    it('Content-Encoding: gzip with a body that is not gzip → 400 BAD_REQUEST', async () => {
      const acc = await admin.account('pro');
      const res = await t
        .http()
        .post('/api/v1/__probe/research')
        .set(bearer(acc.key))
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .send('{"name":"x","count":1}');
      expectEnvelope(res, 400, 'BAD_REQUEST');
      expect(res.body.error?.message).toMatch(/could not be read/);
      expect(await used(acc.key)).toBe(1);
    });

    it('Content-Encoding: gzip with a real gzip body is still accepted', async () => {
      const acc = await admin.account('pro');
      const body = gzipSync('{"name":"x","count":1}');
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          `${t.url}/api/v1/__probe/research`,
          {
            method: 'POST',
            headers: {
              ...bearer(acc.key),
              'Content-Type': 'application/json',
              'Content-Encoding': 'gzip',
              'Content-Length': body.length,
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(status).toBe(201);
    });

    it('an unknown Content-Encoding → 415 UNSUPPORTED_MEDIA_TYPE', async () => {
      const res = await t
        .http()
        .post('/api/v1/__probe/research')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'zstd-nope')
        .send('{}');
      expectEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });
  });

  describe('URLs and Node-level errors', () => {
    it('a malformed percent-encoding in the path → 400 "Malformed URL encoding"', async () => {
      const acc = await admin.account('pro');
      const res = await t.http().get('/api/v1/jobs/%E0%A4%A').set(bearer(acc.key));
      expectEnvelope(res, 400, 'BAD_REQUEST');
      expect(res.body.error.message).toMatch(/Malformed URL encoding/);
      expect(res.body.error.message).not.toMatch(/JSON/);
    });

    it('headers too large → 431 with the envelope', async () => {
      const out = await raw(
        t.url,
        `GET /api/v1/usage HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(out).toMatch(/^HTTP\/1\.1 431 /);
      const body = JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4));
      expect(body).toMatchObject({ success: false, error: { code: 'BAD_REQUEST' } });
    });

    it('a malformed request line → 400 with the envelope', async () => {
      const out = await raw(t.url, 'GARBAGE\r\n\r\n');
      expect(out).toMatch(/^HTTP\/1\.1 400 /);
      const body = JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4));
      expect(body).toMatchObject({ success: false, error: { code: 'BAD_REQUEST' } });
    });
  });
});

describe('Access log: the API key never appears in clear, whatever the spelling (issue 13)', () => {
  const key = 'seo_live_0123456789abcdefSECRET';
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  // The real access-log middleware over Express's own query parser, and a route that reads
  // the key exactly as the auth guard does.
  const app = express();
  app.use(requestLifecycle(pino({ level: 'info' }, sink)) as unknown as express.RequestHandler);
  app.get('/api/v1/usage', (req, res) => {
    res.json({ key_seen: extractKey(req as unknown as ApiRequest) === key });
  });

  it.each([
    `?api_key=${key}`,
    `?api%5Fkey=${key}`,
    `?API_KEY=${key}`,
    `?Api%5fKey=${key}`,
    `?api_key[]=${key}`,
    `?api_key%5B%5D=${key}`,
    `?x=1;api_key=${key}`,
    `;api_key=${key}`,
    `?x=1#api_key=${key}`,
    `?x=1?api_key=${key}`,
    `?api_key=${encodeURIComponent(key)}`,
  ])('%s', async (query) => {
    lines.length = 0;
    await request(app).get(`/api/v1/usage${query}`);
    await new Promise((r) => setImmediate(r));
    expect(lines.length).toBe(1);
    expect(lines[0]).toContain('"url":"/api/v1/usage');
    expect(lines[0]).not.toContain(key);
    expect(lines[0]).not.toContain('0123456789abcdef');
  });

  it('the decoded-name spelling does authenticate (so it must be redacted)', async () => {
    const res = await request(app).get(`/api/v1/usage?api%5Fkey=${key}`);
    expect(res.body.key_seen).toBe(true);
  });
});
