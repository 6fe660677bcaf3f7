import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A small HTTP load balancer for the topology test, in front of the API processes: round
 * robin, `X-Forwarded-For` set (the APIs run with `TRUST_PROXY=loopback`), a fresh upstream
 * connection per request. An upstream that refuses the connection is skipped for a second and
 * the request goes to the next one (it never reached a server, so retrying is safe). An
 * upstream that dies after it accepted the request (it may have been served and counted)
 * answers 502 with `X-Topology-Indeterminate: 1`, and the request is counted as indeterminate
 * rather than retried.
 */
export class Balancer {
  private server: http.Server | null = null;
  private next = 0;
  private readonly downUntil: number[];
  /** Requests an upstream accepted and then dropped without an answer. */
  indeterminate = 0;
  url = '';

  constructor(private readonly upstreams: string[]) {
    this.downUntil = upstreams.map(() => 0);
  }

  async start(): Promise<string> {
    const server = http.createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    for (let tries = 0; tries < this.upstreams.length * 2; tries++) {
      const i = this.pick();
      const outcome = await this.forward(this.upstreams[i], req, body, res);
      if (outcome === 'refused') {
        this.downUntil[i] = Date.now() + 1_000;
        continue;
      }
      return;
    }
    res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' });
    res.end(JSON.stringify({ success: false, error: { code: 'NO_UPSTREAM', message: 'none' } }));
  }

  private pick(): number {
    const now = Date.now();
    for (let k = 0; k < this.upstreams.length; k++) {
      const i = this.next++ % this.upstreams.length;
      if (this.downUntil[i] <= now) return i;
    }
    return this.next++ % this.upstreams.length;
  }

  private forward(
    upstream: string,
    req: IncomingMessage,
    body: Buffer,
    res: ServerResponse,
  ): Promise<'done' | 'refused'> {
    const target = new URL(req.url ?? '/', upstream);
    const headers: http.OutgoingHttpHeaders = {
      ...req.headers,
      host: target.host,
      connection: 'close',
    };
    headers['x-forwarded-for'] = req.socket.remoteAddress ?? '127.0.0.1';
    headers['content-length'] = String(body.length);
    return new Promise((resolve) => {
      let connected = false;
      const out = http.request(
        target,
        { method: req.method, headers, agent: false },
        (answer: IncomingMessage) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('end', () => resolve('done'));
          answer.on('error', () => {
            res.destroy();
            resolve('done');
          });
        },
      );
      out.on('socket', (s) => s.on('connect', () => (connected = true)));
      out.on('error', (err: NodeJS.ErrnoException) => {
        if (!connected && err.code === 'ECONNREFUSED') return resolve('refused');
        if (res.headersSent) {
          res.destroy();
        } else {
          this.indeterminate++;
          res.writeHead(502, {
            'Content-Type': 'application/json',
            'X-Topology-Indeterminate': '1',
          });
          res.end(
            JSON.stringify({
              success: false,
              error: { code: 'UPSTREAM_DROPPED', message: err.message },
            }),
          );
        }
        resolve('done');
      });
      out.end(body);
    });
  }
}
