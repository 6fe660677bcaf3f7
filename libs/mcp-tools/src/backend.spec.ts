import { ApiResult, RequestOptions, ToolBackend, apiGet, apiPost } from './backend';

/** A backend that records what the tools ask of it. */
function recording() {
  const calls: Array<{ method: string; path: string; options?: RequestOptions }> = [];
  const api: ToolBackend = {
    request(method, path, options) {
      calls.push({ method, path, options });
      return Promise.resolve({ ok: true, status: 200, data: {}, meta: {} } as ApiResult);
    },
  };
  return { api, calls };
}

describe('apiPost: each tool POST has an Idempotency-Key of its own', () => {
  it('a new UUID per call; GETs carry none', async () => {
    const { api, calls } = recording();
    await apiPost(api, '/site-audit', { url: 'https://example.com' });
    await apiPost(api, '/site-audit', { url: 'https://example.com' });
    await apiGet(api, '/usage');
    const [a, b, get] = calls.map((c) => c.options?.idempotencyKey);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
    expect(get).toBeUndefined();
  });
});
