import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface FixtureSite {
  /** Origin of the site, e.g. http://127.0.0.1:40123 */
  origin: string;
  /** Paths requested so far (in order). */
  hits: string[];
  close: () => Promise<void>;
}

export interface FixtureSiteOptions {
  /** Number of plain article pages linked from the home page (default 12). */
  articles?: number;
  /** Delay of every page response in ms (default 0). */
  delayMs?: number;
}

/** A page title and description that would run script if the report did not escape them. */
export const HOSTILE_TITLE = '<script>alert("pwned")</script> Hostile & "quoted"';

const page = (title: string, body: string, extraHead = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<meta name="description" content="A fixture page used by the site-audit tests.">${extraHead}</head>` +
  `<body>${body}</body></html>`;

/**
 * A small website served on 127.0.0.1 for the crawler: a home page linking to articles, a page
 * with a hostile title (raw markup, as a real hostile site would send it), a page without H1,
 * a 404 link, robots.txt.
 */
export async function startFixtureSite(options: FixtureSiteOptions = {}): Promise<FixtureSite> {
  const articles = options.articles ?? 12;
  const delayMs = options.delayMs ?? 0;
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.push(path);
    const send = (status: number, type: string, body: string) => {
      setTimeout(
        () => {
          res.writeHead(status, { 'Content-Type': type });
          res.end(body);
        },
        path === '/robots.txt' ? 0 : delayMs,
      );
    };
    if (path === '/robots.txt') return send(200, 'text/plain', 'User-agent: *\nAllow: /\n');
    if (path === '/') {
      const links = Array.from(
        { length: articles },
        (_, i) => `<li><a href="/articles/${i + 1}">Article ${i + 1}</a></li>`,
      );
      return send(
        200,
        'text/html; charset=utf-8',
        page(
          'Fixture home',
          `<h1>Fixture site</h1><p>Welcome to the fixture site with several articles to crawl.</p>` +
            `<ul>${links.join('')}<li><a href="/hostile">Hostile</a></li><li><a href="/missing">Missing</a></li></ul>`,
        ),
      );
    }
    const m = /^\/articles\/(\d+)$/.exec(path);
    if (m && Number(m[1]) >= 1 && Number(m[1]) <= articles) {
      const n = Number(m[1]);
      return send(
        200,
        'text/html; charset=utf-8',
        page(
          `Article ${n} of the fixture site`,
          `<h1>Article ${n}</h1><p>${'Some words about topic number '.repeat(20)}${n}.</p><a href="/">Home</a>` +
            (n < articles ? ` <a href="/articles/${n + 1}">Next</a>` : ''),
        ),
      );
    }
    if (path === '/hostile') {
      return send(
        200,
        'text/html; charset=utf-8',
        page(
          HOSTILE_TITLE,
          `<p>No heading here, only <b>text</b> and a <a href="/">link home</a>.</p>`,
        ),
      );
    }
    return send(404, 'text/html; charset=utf-8', page('Not found', '<h1>Not found</h1>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A local port with nothing listening on it (connections are refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
