import * as zlib from 'node:zlib';
import { type FixtureServer, serve } from '../../../test/fixtures/site/fixture-server';
import { buildAddressPolicy } from './address-guard';
import { HttpFetcher } from './http-fetcher';

describe('HttpFetcher (node:http with connect-time guard, caps, decompression)', () => {
  let s: FixtureServer;
  const fetcher = new HttpFetcher({
    userAgent: 'T/1',
    policy: buildAddressPolicy(true),
    timeoutMs: 500,
    maxBodyBytes: 64 * 1024,
    concurrency: 2,
  });
  const html = () => true;

  beforeAll(async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x61)); // 50 MiB of 'a' in ~50 KiB
    s = await serve({
      '/bomb': (_q, res) => {
        res.writeHead(200, {
          'content-type': 'text/html',
          'content-encoding': 'gzip',
          'content-length': String(bomb.length),
        });
        res.end(bomb);
      },
      '/latin1': (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' });
        res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9])); // "café"
      },
      '/meta-charset': (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          Buffer.concat([Buffer.from('<meta charset="windows-1252"><p>'), Buffer.from([0x80])]),
        ); // €
      },
      '/binary': (_q, res) => {
        res.writeHead(200, {
          'content-type': 'image/png',
          'content-length': String(10 * 1024 * 1024),
        });
        res.write(Buffer.alloc(1024));
      },
      '/drip': (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<p>start');
      },
      '/redirect': (_q, res) => {
        res.writeHead(302, { location: '/elsewhere' });
        res.end('moved');
      },
    });
  });
  afterAll(async () => {
    fetcher.close();
    await s.close();
  });

  it('stops decompressing at maxBodyBytes (decompression bomb) and flags the body as truncated', async () => {
    const r = await fetcher.get(`${s.origin}/bomb`, html);
    expect(r.bytes).toBe(64 * 1024);
    expect(r.truncated).toBe(true);
    expect(r.text).toHaveLength(64 * 1024);
  });

  it('decodes the declared charset, or the <meta charset>', async () => {
    expect((await fetcher.get(`${s.origin}/latin1`, html)).text).toBe('café');
    expect((await fetcher.get(`${s.origin}/meta-charset`, html)).text).toMatch(/€$/);
  });

  it('does not read bodies the caller does not want (non-HTML)', async () => {
    const r = await fetcher.get(`${s.origin}/binary`, (ct) => ct === 'text/html');
    expect(r.contentType).toBe('image/png');
    expect(r.text).toBeNull();
    expect(r.bytes).toBe(10 * 1024 * 1024); // declared length, not downloaded
  });

  it('times out a body that never completes', async () => {
    await expect(fetcher.get(`${s.origin}/drip`, html)).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('returns redirects without following them', async () => {
    const r = await fetcher.get(`${s.origin}/redirect`, html);
    expect(r).toMatchObject({ status: 302, location: '/elsewhere', text: null });
  });

  it('refuses IP-literal hosts that the policy refuses before connecting', async () => {
    const strict = new HttpFetcher({
      userAgent: 'T/1',
      policy: buildAddressPolicy(false),
      timeoutMs: 500,
      maxBodyBytes: 1024,
      concurrency: 1,
    });
    try {
      await expect(strict.get(`${s.origin}/latin1`, html)).rejects.toMatchObject({
        code: 'PRIVATE_ADDRESS',
      });
      await expect(strict.get(`http://[::ffff:7f00:1]:${s.port}/`, html)).rejects.toMatchObject({
        code: 'PRIVATE_ADDRESS',
      });
    } finally {
      strict.close();
    }
  });
});
