import { AdminClient } from '../helpers/fixtures';
import { freePort, spawnDist, waitForHttp } from '../helpers/processes';

interface LogLine {
  req?: { id: string; url: string };
  res?: { status: number };
  latency_ms?: number;
  account_id?: number;
  route?: string;
}

/** The compiled API and worker as processes: start-up errors, logs, graceful shutdown. */
describe('Operations: start-up configuration errors, structured logs, graceful shutdown', () => {
  it.each([
    ['PORT', 'not-a-port'],
    ['DATABASE_URL', 'mysql://localhost/x'],
    ['REDIS_PREFIX', 'has spaces'],
    ['ADMIN_TOKEN', 'short'],
  ])('the API refuses to start with %s=%s and names the variable', async (name, value) => {
    const p = spawnDist('apps/api/src/main.js', { [name]: value });
    expect(await p.exited).toBe(1);
    expect(p.stderr()).toContain(name);
  });

  it('the worker refuses to start with an invalid REDIS_URL and names it', async () => {
    const p = spawnDist('apps/worker/src/main.js', { REDIS_URL: 'http://not-redis' });
    expect(await p.exited).toBe(1);
    expect(p.stderr()).toContain('REDIS_URL');
  });

  it('logs JSON lines with request id, status, latency and account id, never the api_key value; exits cleanly on SIGTERM', async () => {
    const port = await freePort();
    const p = spawnDist('apps/api/src/main.js', { PORT: String(port), LOG_LEVEL: 'info' });
    let requestId: string | null = null;
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitForHttp(`${base}/health/live`);
      const acc = await new AdminClient(base).account('pro');
      const res = await fetch(`${base}/api/v1/usage?api_key=${acc.key}`);
      expect(res.status).toBe(200);
      requestId = res.headers.get('x-request-id');
      await fetch(`${base}/api/v1/usage?api_key=seo_live_wrong_secret_value`);
    } finally {
      p.child.kill('SIGTERM');
    }
    const code = await p.exited;
    expect(code === 0 || code === null).toBe(true);
    const out = p.stdout();
    expect(out).not.toMatch(/seo_live_[A-Za-z0-9_-]{20,}/);
    expect(out).not.toContain('wrong_secret_value');
    const lines = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogLine);
    const usage = lines.find(
      (l) => l.req?.url?.startsWith('/api/v1/usage') && l.res?.status === 200,
    );
    expect(usage).toBeDefined();
    expect(usage?.req?.url).toBe('/api/v1/usage?api_key=[REDACTED]');
    expect(usage?.req?.id).toBe(requestId);
    expect(usage!.latency_ms).toEqual(expect.any(Number));
    expect(usage!.account_id).toEqual(expect.any(Number));
    expect(usage!.route).toBe('/api/v1/usage');
  });
});
