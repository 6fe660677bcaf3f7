import http from 'node:http';
import zlib from 'node:zlib';
import { compressionCounts } from '@app/gateway';
import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { GENEROUS, YourDataAdmin } from '../your-data/your-data-fixtures';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as they came over the wire (not decoded). */
  body: Buffer;
}

/** A request whose answer is read as raw bytes: Node's http client never decodes. */
function raw(
  url: string,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return zlib.gunzipSync(answer.body);
  expect(encoding).toBeUndefined();
  return answer.body;
}

const json = (answer: RawAnswer) => JSON.parse(decode(answer).toString('utf8'));
const withoutMeta = (body: { data?: unknown; error?: unknown; success: boolean }) => ({
  success: body.success,
  data: body.data,
  error: body.error,
});

/**
 * Compressed answers (docs/decisions/0006-compression.md): negotiation, the threshold, Vary,
 * the kept rank pages' compressed bytes, errors and HTML pages.
 */
describe('answers compressed with gzip or brotli when asked', () => {
  let t: TestApp;
  let acc: TestAccount;
  const RANK = '/api/v1/rank/keywords?limit=100';

  beforeAll(async () => {
    t = await createTestApp();
    const yd = new YourDataAdmin(new AdminClient(t.url));
    acc = await yd.admin.account('pro', GENEROUS);
    const project = await yd.rankProject(acc.id, 'compress.example', 'Compress');
    for (let i = 0; i < 30; i++) await yd.keyword(project, `compressed keyword ${i}`);
  });
  afterAll(async () => {
    await t.close();
  });

  const auth = () => ({ Authorization: `Bearer ${acc.key}` });

  it('negotiates brotli, gzip or none from Accept-Encoding, with Vary on every answer', async () => {
    const identity = await raw(t.url, RANK, auth());
    expect(identity.status).toBe(200);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.vary).toMatch(/accept-encoding/i);
    expect(identity.body.length).toBeGreaterThan(1024);
    const expected = withoutMeta(json(identity));
    expect(expected.data).toMatchObject({ count: 30 });

    const cases: Array<[string, string | undefined]> = [
      ['gzip, br', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['x-gzip', 'gzip'],
      ['gzip;q=1.0, br;q=0.5', 'br'],
      ['gzip, br;q=0', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['BR ; Q=0 , GZIP', 'gzip'],
      ['*', 'br'],
      ['*, br;q=0', 'gzip'],
      ['*;q=0', undefined],
      ['identity', undefined],
      ['deflate', undefined],
      ['gzip;q=nonsense', undefined],
      ['', undefined],
    ];
    for (const [accept, encoding] of cases) {
      const answer = await raw(t.url, RANK, { ...auth(), 'Accept-Encoding': accept });
      expect({
        accept,
        status: answer.status,
        encoding: answer.headers['content-encoding'],
      }).toEqual({ accept, status: 200, encoding });
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      if (encoding) expect(answer.body.length).toBeLessThan(identity.body.length / 3);
      // The same JSON whatever the encoding.
      expect(withoutMeta(json(answer))).toEqual(expected);
    }
  });

  it('leaves answers under 1 KB alone, without Vary', async () => {
    const usage = await raw(t.url, '/api/v1/usage', { ...auth(), 'Accept-Encoding': 'gzip, br' });
    expect(usage.status).toBe(200);
    expect(usage.body.length).toBeLessThan(1024);
    expect(usage.headers['content-encoding']).toBeUndefined();
    expect(usage.headers.vary ?? '').not.toMatch(/accept-encoding/i);
    expect(json(usage).success).toBe(true);
  });

  it('a kept rank page keeps its compressed bytes: a repeat compresses nothing', async () => {
    for (const encoding of ['br', 'gzip']) {
      const first = await raw(t.url, RANK, { ...auth(), 'Accept-Encoding': encoding });
      const counts = { ...compressionCounts };
      const again = await raw(t.url, RANK, { ...auth(), 'Accept-Encoding': encoding });
      const third = await raw(t.url, RANK, { ...auth(), 'Accept-Encoding': encoding });
      // Served from the kept page's compressed prefix: no compression at all.
      expect(compressionCounts.full).toBe(counts.full);
      expect(compressionCounts.prefix).toBe(counts.prefix);
      expect(compressionCounts.reused).toBe(counts.reused + 2);
      for (const answer of [first, again, third])
        expect(answer.headers['content-encoding']).toBe(encoding);
      // Identical bytes up to the envelope's meta (request id and timestamp differ).
      const tail = 400;
      expect(again.body.subarray(0, again.body.length - tail)).toEqual(
        first.body.subarray(0, again.body.length - tail),
      );
      expect(third.body.subarray(0, third.body.length - tail)).toEqual(
        first.body.subarray(0, third.body.length - tail),
      );
      const [a, b] = [json(first), json(again)];
      expect(b.data).toEqual(a.data);
      expect(b.meta.request_id).not.toBe(a.meta.request_id);
      expect(Object.keys(b.meta)).toEqual(Object.keys(a.meta));
    }
  });

  it('compresses a large error envelope, which decodes to the same envelope', async () => {
    // An unknown route's 404 names the path: a long path makes the envelope pass 1 KB.
    const path = `/api/v1/${'x'.repeat(1500)}`;
    const plain = await raw(t.url, path, auth());
    const packed = await raw(t.url, path, { ...auth(), 'Accept-Encoding': 'gzip' });
    expect(plain.status).toBe(packed.status);
    expect(plain.status).toBeGreaterThanOrEqual(400);
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.headers.vary).toMatch(/accept-encoding/i);
    const body = json(packed);
    expect(body.success).toBe(false);
    expect(withoutMeta(body)).toEqual(withoutMeta(json(plain)));
    // A small error stays as it is.
    const small = await raw(t.url, '/api/v1/nope', { ...auth(), 'Accept-Encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(json(small).success).toBe(false);
  });

  it('never compresses HEAD answers', async () => {
    const head = await raw(t.url, RANK, { ...auth(), 'Accept-Encoding': 'gzip, br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(head.body.length).toBe(0);
  });

  it('compresses HTML pages when asked', async () => {
    const page = await raw(t.url, '/account/sign-in', { 'Accept-Encoding': 'br' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers.vary).toMatch(/accept-encoding/i);
    const plain = await raw(t.url, '/account/sign-in', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(decode(page).toString()).toMatch(/<html/i);
    expect(decode(page).length).toBe(plain.body.length);
  });

  it('Node fetch (the TypeScript client and the MCP server use it) decodes both', async () => {
    for (const encoding of ['gzip', 'br']) {
      const res = await fetch(`${t.url}${RANK}`, {
        headers: { ...auth(), 'Accept-Encoding': encoding },
      });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      const body = (await res.json()) as { data: { count: number } };
      expect(body.data.count).toBe(30);
    }
    // fetch's own default Accept-Encoding.
    const res = await fetch(`${t.url}${RANK}`, { headers: auth() });
    expect(['gzip', 'br']).toContain(res.headers.get('content-encoding'));
    expect(((await res.json()) as { data: { count: number } }).data.count).toBe(30);
  });
});
