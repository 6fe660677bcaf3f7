import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { browserTestsEnabled, openBrowser, BrowserSession, VIEWPORTS } from '../helpers/browser';
import { AdminClient } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';

const suite = 'hosted /mcp from a browser page on a loopback origin (headless Chromium)';
const describeBrowser = browserTestsEnabled(suite) ? describe : describe.skip;

/**
 * What a browser-based MCP client on a local origin (the MCP Inspector's web UI) does: a page
 * on http://localhost:<port> calls /mcp on another origin with fetch. Without a key it must be
 * able to read the 401's WWW-Authenticate (to find the OAuth metadata); with a key, the
 * requests after initialize carry MCP-Protocol-Version, which the CORS preflight must allow
 * (issue 36). A cross-site page stays refused.
 */
describeBrowser(suite, () => {
  let t: TestApp;
  let page: http.Server;
  let pageOrigin: string;
  let browser: BrowserSession;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({ now: '2026-11-20T12:00:00Z' });
    key = (await new AdminClient(t.url).account('pro')).key;
    page = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Local MCP client</title><p>client</p>');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://localhost:${(page.address() as AddressInfo).port}`;
    browser = await openBrowser(VIEWPORTS.desktop, pageOrigin);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    page?.closeAllConnections();
    await new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve()));
    await t?.close();
  });

  it('reads the 401 challenge, then initialize and tools/list with MCP-Protocol-Version succeed', async () => {
    await browser.page.goto(`${pageOrigin}/`);
    const outcome = await browser.page.evaluate(
      async ({ endpoint, bearer }) => {
        const headers = {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        };
        const body = (id: number, method: string, params: unknown) =>
          JSON.stringify({ jsonrpc: '2.0', id, method, params });
        const init = {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'browser', version: '1' },
        };
        const anonymous = await fetch(endpoint, {
          method: 'POST',
          headers,
          body: body(1, 'initialize', init),
        });
        const initialized = await fetch(endpoint, {
          method: 'POST',
          headers: { ...headers, authorization: `Bearer ${bearer}` },
          body: body(1, 'initialize', init),
        });
        const listed = await fetch(endpoint, {
          method: 'POST',
          headers: {
            ...headers,
            authorization: `Bearer ${bearer}`,
            'mcp-protocol-version': '2025-06-18',
          },
          body: body(2, 'tools/list', {}),
        });
        return {
          anonymousStatus: anonymous.status,
          challenge: anonymous.headers.get('www-authenticate'),
          initStatus: initialized.status,
          initText: await initialized.text(),
          listStatus: listed.status,
          listText: await listed.text(),
        };
      },
      { endpoint: `${t.url}/mcp`, bearer: key },
    );
    expect(outcome.anonymousStatus).toBe(401);
    expect(outcome.challenge).toContain('resource_metadata=');
    expect(outcome.initStatus).toBe(200);
    expect(outcome.initText).toContain('"protocolVersion":"2025-06-18"');
    expect(outcome.listStatus).toBe(200);
    expect(outcome.listText).toContain('get_backlinks');
  });
});
