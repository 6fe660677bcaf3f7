import { ApiClient, FetchLike } from './api-client';

const client = (respond: (url: URL, init: RequestInit) => Response | Promise<Response>) => {
  const seen: Array<{ url: string; init: RequestInit & { headers: Headers } }> = [];
  const fetchImpl: FetchLike = async (request) => {
    const init = {
      method: request.method,
      headers: request.headers,
      body: request.method === 'GET' ? undefined : await request.text(),
      signal: request.signal,
    };
    seen.push({ url: request.url, init });
    return respond(new URL(request.url), init);
  };
  return {
    api: new ApiClient(
      { apiKey: 'sk_test', baseUrl: 'http://api.test/prefix', requestTimeoutMs: 200 },
      fetchImpl,
    ),
    seen,
  };
};
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

describe('ApiClient: the REST envelope to ok/failure, never throwing', () => {
  it('sends the key as a Bearer header, drops undefined query members, JSON bodies', async () => {
    const { api, seen } = client(() =>
      json(200, { success: true, data: { a: 1 }, meta: { cached: true } }),
    );
    expect(await api.get('/backlinks', { domain: 'x.com', page: undefined, limit: 5 })).toEqual({
      ok: true,
      status: 200,
      data: { a: 1 },
      meta: { cached: true },
    });
    expect(seen[0].url).toBe('http://api.test/prefix/api/v1/backlinks?domain=x.com&limit=5');
    expect(seen[0].init.headers.get('Authorization')).toBe('Bearer sk_test');
    await api.post('/keyword-research', { keyword: 'k' });
    expect(seen[1].init).toMatchObject({ method: 'POST', body: '{"keyword":"k"}' });
    expect(seen[1].init.headers.get('Content-Type')).toBe('application/json');
  });

  it('a POST carries an Idempotency-Key: the one given, else a new random one; a GET none', async () => {
    const { api, seen } = client(() => json(200, { success: true, data: {}, meta: {} }));
    await api.request('POST', '/site-audit', {
      body: { url: 'https://x.com' },
      idempotencyKey: 'k-1',
    });
    await api.post('/site-audit', { url: 'https://x.com' });
    await api.post('/site-audit', { url: 'https://x.com' });
    await api.get('/usage');
    const keys = seen.map((s) => s.init.headers.get('Idempotency-Key'));
    expect(keys[0]).toBe('k-1');
    expect(keys[1]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(keys[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[2]).not.toBe(keys[1]);
    expect(keys[3]).toBeNull();
  });

  it('a 202 acceptance (top-level job_id/status/poll) becomes data', async () => {
    const { api } = client(() =>
      json(202, {
        success: true,
        job_id: 'job_1',
        status: 'queued',
        poll: 'p',
        meta: { max_pages: 5 },
      }),
    );
    expect(await api.post('/site-audit', { url: 'https://x.com' })).toEqual({
      ok: true,
      status: 202,
      data: { job_id: 'job_1', status: 'queued', poll: 'p' },
      meta: { max_pages: 5 },
    });
  });

  it('an error envelope keeps code, message, details and meta', async () => {
    const { api } = client(() =>
      json(422, {
        success: false,
        error: { code: 'VALIDATION_ERROR', message: 'bad', details: [{ field: 'limit' }] },
        meta: { request_id: 'r' },
      }),
    );
    expect(await api.get('/backlinks')).toEqual({
      ok: false,
      status: 422,
      code: 'VALIDATION_ERROR',
      message: 'bad',
      details: [{ field: 'limit' }],
      meta: { request_id: 'r' },
    });
  });

  it('a non-JSON answer (e.g. a proxy page) is a failure with a status-derived code', async () => {
    const { api } = client(() => new Response('<html>bad gateway</html>', { status: 502 }));
    expect(await api.get('/usage')).toMatchObject({ ok: false, status: 502, code: 'SERVER_ERROR' });
    const { api: okButHtml } = client(() => new Response('<html></html>', { status: 200 }));
    expect(await okButHtml.get('/usage')).toMatchObject({
      ok: false,
      status: 200,
      code: 'INVALID_RESPONSE',
    });
  });

  it('network failure and timeout are failures, not exceptions', async () => {
    const { api } = client(() => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
      });
    });
    expect(await api.get('/usage')).toMatchObject({
      ok: false,
      status: null,
      code: 'NETWORK_ERROR',
      message: expect.stringContaining('ECONNREFUSED'),
    });
    const { api: slow } = client(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    );
    expect(await slow.get('/usage')).toMatchObject({ ok: false, status: null, code: 'TIMEOUT' });
  });
});
