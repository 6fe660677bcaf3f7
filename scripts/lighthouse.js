#!/usr/bin/env node
/*
 * Lighthouse (mobile emulation, its default: a mid-range phone, simulated slow 4G and 4x CPU
 * slowdown) of the site's pages, driving Debian's chromium. Not part of `npm test`; the figures
 * go in docs/lighthouse.md. Lighthouse is not a dependency of the project: install it anywhere
 * and point LIGHTHOUSE_DIR at that folder, e.g.
 *   mkdir -p /tmp/lh && cd /tmp/lh && npm install --no-audit --no-fund --save-exact lighthouse@13.5.0
 * Usage (against a running instance, e.g. `npm start`):
 *   LIGHTHOUSE_DIR=/tmp/lh node scripts/lighthouse.js http://localhost:3000 /docs / /account/sign-in
 * Pages behind a sign-in take a Cookie header: LIGHTHOUSE_COOKIE='seo_session=…'.
 * Prints one line per page: performance, accessibility, best practices, SEO.
 */
'use strict';
const path = require('node:path');
const { pathToFileURL } = require('node:url');

async function main() {
  const [base = 'http://localhost:3000', ...pages] = process.argv.slice(2);
  const dir = process.env.LIGHTHOUSE_DIR
    ? path.join(process.env.LIGHTHOUSE_DIR, 'node_modules')
    : '';
  const resolve = (name) => require.resolve(name, dir ? { paths: [dir] } : undefined);
  const { default: lighthouse } = await import(pathToFileURL(resolve('lighthouse')).href);
  const chromeLauncher = await import(pathToFileURL(resolve('chrome-launcher')).href);
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
    ],
  });
  try {
    for (const page of pages.length ? pages : ['/docs']) {
      const headers = process.env.LIGHTHOUSE_COOKIE
        ? { Cookie: process.env.LIGHTHOUSE_COOKIE }
        : undefined;
      const result = await lighthouse(
        `${base}${page}`,
        { port: chrome.port, output: 'json', logLevel: 'error', extraHeaders: headers },
        undefined,
      );
      const c = result.lhr.categories;
      const score = (k) => (c[k] && c[k].score !== null ? Math.round(c[k].score * 100) : 'n/a');
      const failed = Object.values(result.lhr.audits)
        .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary')
        .map((a) => a.id);
      console.log(
        `${page}\tperformance ${score('performance')}\taccessibility ${score('accessibility')}\t` +
          `best-practices ${score('best-practices')}\tseo ${score('seo')}` +
          `\tFCP ${result.lhr.audits['first-contentful-paint'].displayValue}` +
          `\tLCP ${result.lhr.audits['largest-contentful-paint'].displayValue}` +
          `\tTBT ${result.lhr.audits['total-blocking-time'].displayValue}` +
          `\tCLS ${result.lhr.audits['cumulative-layout-shift'].displayValue}` +
          `\tSI ${result.lhr.audits['speed-index'].displayValue}` +
          `\ttransfer ${Math.round(result.lhr.audits['total-byte-weight'].numericValue / 1024)} KiB` +
          (failed.length ? `\tfailing: ${failed.join(', ')}` : ''),
      );
    }
  } finally {
    await chrome.kill();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
