import { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request, Response } from 'express';
import { ApiError, TopLevelBody, withMeta } from '@app/core';
import { EnvelopeExpressAdapter, errorEnvelope, toEnvelope, toErrorEnvelope } from './envelope';

describe('toEnvelope (spec: Response envelope)', () => {
  const now = new Date(Date.UTC(2026, 10, 21, 12, 0, 0));
  const meta = { timestamp: '2026-11-21T12:00:00.000+00:00', request_id: 'req-1' };

  it('wraps plain data', () => {
    expect(toEnvelope({ a: 1 }, 'req-1', now)).toEqual({ success: true, data: { a: 1 }, meta });
  });

  it('adds extra meta members from withMeta', () => {
    expect(toEnvelope(withMeta({ a: 1 }, { key_name: 'k' }), 'req-1', now)).toEqual({
      success: true,
      data: { a: 1 },
      meta: { ...meta, key_name: 'k' },
    });
  });

  it('puts a TopLevelBody at the top level (202 job acceptance)', () => {
    expect(
      toEnvelope(
        new TopLevelBody({ job_id: 'j', status: 'queued' }, { max_pages: 5 }),
        'req-1',
        now,
      ),
    ).toEqual({
      success: true,
      job_id: 'j',
      status: 'queued',
      meta: { ...meta, max_pages: 5 },
    });
  });

  it('gives an empty data object for an empty result and passes strings through', () => {
    expect(toEnvelope(undefined, 'req-1', now)).toEqual({ success: true, data: {}, meta });
    expect(toEnvelope('<html></html>', 'req-1', now)).toBe('<html></html>');
  });
});

describe('toErrorEnvelope (an error that reached the adapter instead of our filter)', () => {
  const now = new Date(Date.UTC(2026, 10, 21, 12, 0, 0));
  const meta = { timestamp: '2026-11-21T12:00:00.000+00:00', request_id: 'req-1' };

  it("turns Nest's {statusCode, message} into the error envelope with the status's code", () => {
    expect(toErrorEnvelope({ statusCode: 403, message: 'Forbidden' }, 403, 'req-1', now)).toEqual({
      success: false,
      error: { code: 'FORBIDDEN', message: 'Forbidden' },
      meta,
    });
  });

  it('never passes on a 5xx message', () => {
    const env = toErrorEnvelope({ statusCode: 500, message: 'db password=x' }, 500, 'req-1', now);
    expect(env.error).toEqual({
      code: 'SERVER_ERROR',
      message: 'Internal error. It is safe to retry.',
    });
  });

  it('keeps an error envelope as it is', () => {
    const body = errorEnvelope(new ApiError('NOT_FOUND', 'Job not found.'), 'req-1', now);
    expect(toErrorEnvelope(body, 404, 'req-2', now)).toBe(body);
  });
});

describe('EnvelopeExpressAdapter.afterRoutes: mounts behind the routes', () => {
  type Layer = { name: string; route?: unknown };
  const stackOf = (adapter: EnvelopeExpressAdapter): Layer[] =>
    (adapter.getInstance() as { router: { stack: Layer[] } }).router.stack;

  it('runs the mounts when the not-found handler is registered, just in front of it', () => {
    const adapter = new EnvelopeExpressAdapter();
    const mounted: string[] = [];
    adapter.afterRoutes(() => {
      mounted.push('ops');
      adapter.use(function opsPage(_req: unknown, _res: unknown, next: () => void) {
        next();
      });
    });
    adapter.get('/api/v1/usage', () => undefined);
    expect(mounted).toEqual([]);
    adapter.setNotFoundHandler(function notFound() {
      return undefined;
    });
    expect(mounted).toEqual(['ops']);
    const names = stackOf(adapter).map((l) => (l.route ? 'route' : l.name));
    expect(names.slice(-3)).toEqual(['route', 'opsPage', 'notFound']);
  });

  it('once the routes are registered, a mount runs at once', () => {
    const adapter = new EnvelopeExpressAdapter();
    adapter.setNotFoundHandler(() => undefined);
    let ran = false;
    adapter.afterRoutes(() => (ran = true));
    expect(ran).toBe(true);
  });
});

describe('EnvelopeExpressAdapter.initHttpServer: requests made with express prototypes', () => {
  type Express = { request: object; response: object; get: (...args: unknown[]) => void };

  async function serve(adapter: EnvelopeExpressAdapter, options: object) {
    adapter.initHttpServer(options);
    const server = adapter.getHttpServer() as Server;
    const app = adapter.getInstance<Express>();
    const seen: Array<{ req: unknown; res: unknown }> = [];
    // Runs before express's own handler, so it sees what Node's server made.
    server.prependListener('request', (req, res) =>
      seen.push({ req: Object.getPrototypeOf(req), res: Object.getPrototypeOf(res) }),
    );
    app.get('/probe', (req: Request, res: Response) => {
      res.json({ query: req.query, host: req.hostname, proto: req.protocol });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/probe?a=1`);
    const body = (await answer.json()) as unknown;
    await new Promise((resolve) => server.close(resolve));
    return { app, seen, status: answer.status, body };
  }

  it('creates each request and response with app.request and app.response as prototypes', async () => {
    const { app, seen, status, body } = await serve(new EnvelopeExpressAdapter(), {});
    expect(seen).toHaveLength(1);
    expect(seen[0].req).toBe(app.request);
    expect(seen[0].res).toBe(app.response);
    // express's request and response members work as before.
    expect(status).toBe(200);
    expect(body).toEqual({ query: { a: '1' }, host: '127.0.0.1', proto: 'http' });
  });

  it("leaves forceCloseConnections to Nest's own server", async () => {
    const { seen, status } = await serve(new EnvelopeExpressAdapter(), {
      forceCloseConnections: true,
    });
    expect(seen[0].req).toBe(IncomingMessage.prototype);
    expect(seen[0].res).toBe(ServerResponse.prototype);
    expect(status).toBe(200);
  });
});
