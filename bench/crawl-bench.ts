/**
 * Site-audit crawl benchmark: crawls a generated 2,000+ page site served by a child process on
 * 127.0.0.1 (so the server does not share the crawler's event loop), politeness off.
 * Reports pages/s and peak RSS of the crawling process. Targets: ≥ 100 pages/s, RSS < 300 MB.
 *
 *   npm run bench:crawl                       (builds first)
 *   BENCH_PAGES=2000 BENCH_CONCURRENCY=8 node dist/bench/crawl-bench.js
 */
import { fork } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runAudit } from '@app/crawler';

const SECTIONS = 40;
const ARTICLES_PER_SECTION = 50; // 1 + 40 + 2000 = 2041 pages on the site

const WORDS =
  'search marketing audit crawler page title description heading content link structure answer engine visibility ranking speed'.split(
    ' ',
  );

function text(seed: number, n: number): string {
  const out: string[] = [];
  let x = seed * 2654435761;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(WORDS[x % WORDS.length]);
  }
  return out.join(' ');
}

function render(path: string): { status: number; body: string } {
  const links: string[] = [];
  let title: string;
  const m = /^\/s\/(\d+)(?:\/a\/(\d+))?$/.exec(path);
  if (path === '/') {
    title = 'Generated site home';
    for (let s = 0; s < SECTIONS; s++) links.push(`/s/${s}`);
  } else if (m && m[2] === undefined && Number(m[1]) < SECTIONS) {
    const s = Number(m[1]);
    title = `Section ${s}`;
    for (let a = 0; a < ARTICLES_PER_SECTION; a++) links.push(`/s/${s}/a/${a}`);
    links.push(`/s/${(s + 1) % SECTIONS}`, '/');
  } else if (
    m &&
    m[2] !== undefined &&
    Number(m[1]) < SECTIONS &&
    Number(m[2]) < ARTICLES_PER_SECTION
  ) {
    const s = Number(m[1]);
    const a = Number(m[2]);
    title = `Article ${a} of section ${s}`;
    for (let k = 1; k <= 10; k++)
      links.push(`/s/${(s + k) % SECTIONS}/a/${(a * 7 + k) % ARTICLES_PER_SECTION}`);
    links.push(`/s/${s}`, '/?utm_source=bench', '#top');
  } else {
    return { status: 404, body: '<!doctype html><title>Not found</title>' };
  }
  const seed = path.length * 31 + path.charCodeAt(path.length - 1);
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="description" content="${title}: ${text(seed, 12)}"><meta name="viewport" content="width=device-width">
<link rel="canonical" href="${path}"><link rel="stylesheet" href="/static/site.css">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"${title}","author":{"@type":"Person","name":"Bench"},"datePublished":"2026-01-01"}</script>
</head><body><header><nav>${links.map((l, i) => `<a href="${l}">link ${i}</a>`).join(' ')}</nav></header>
<main><h1>${title}</h1><h2>What is ${title}?</h2><p>${text(seed, 180)}</p><img src="/img/${seed}.png" alt="figure">
<h2>Details</h2><p>${text(seed + 1, 220)}</p></main><footer><p>Footer text</p></footer></body></html>`;
  return { status: 200, body };
}

function serveSite(): void {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nAllow: /\n');
      return;
    }
    const { status, body } = render(path);
    res.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () =>
    process.send?.({ port: (server.address() as AddressInfo).port }),
  );
  process.on('disconnect', () => process.exit(0));
}

async function main(): Promise<void> {
  const pages = Number(process.env.BENCH_PAGES ?? 2000);
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
  const child = fork(__filename, ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('error', reject);
  });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 25);
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  let result;
  try {
    result = await runAudit({
      startUrl: `http://127.0.0.1:${port}/`,
      maxPages: pages,
      maxDepth: 5,
      userAgent: 'SeoApiAuditBot/1.0 (bench)',
      allowPrivateNetworks: true,
      concurrency,
      politenessDelayMs: 0,
      timeLimitMs: 240_000,
    });
  } finally {
    clearInterval(sampler);
    child.disconnect();
    child.kill();
  }
  const seconds = (performance.now() - t0) / 1000;
  peakRss = Math.max(peakRss, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
  const pps = result.pagesCrawled / seconds;
  const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
  const report = {
    pages_crawled: result.pagesCrawled,
    truncated: result.truncated,
    seconds: Math.round(seconds * 100) / 100,
    pages_per_second: Math.round(pps * 10) / 10,
    peak_rss_mb: mb(peakRss),
    rss_before_crawl_mb: mb(rssBefore),
    concurrency,
    issues: result.issueCounts,
    total_score: result.totalScore,
    geo_score: result.geoScore,
    node: process.version,
    targets: { pages_per_second: '>= 100', peak_rss_mb: '< 300' },
    pass: pps >= 100 && mb(peakRss) < 300,
  };
  console.log(JSON.stringify(report, null, 2));
  if (!report.pass) process.exitCode = 1;
}

if (process.argv.includes('--serve')) serveSite();
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
