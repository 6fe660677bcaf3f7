import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, BrowserContext, Page } from 'playwright-core';

/** Debian's chromium package (`.ci/run` installs it when missing). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a quiet, offline-friendly headless run (no sandbox: CI runs as root in a container). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/**
 * Whether browser tests can run here. They are skipped (loudly) only when chromium is
 * missing AND the CI variable is unset; in CI a missing browser fails the test instead.
 */
export function browserTestsEnabled(suite: string): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI) return true; // launching fails with a clear message below
  const line = '!'.repeat(100);
  console.warn(
    `${line}\n!! SKIPPED: ${suite}: no browser at ${CHROMIUM_PATH}. Install Debian's chromium ` +
      `(apt-get install -y chromium) or set CHROMIUM_PATH. In CI (CI set) this test fails instead.\n${line}`,
  );
  return false;
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Closes the browser and removes its profile directory. */
  close: () => Promise<void>;
}

/**
 * Headless Chromium with a fresh profile (--user-data-dir in a new temporary directory), at
 * the given viewport. `origin` gets the clipboard permissions (the copy button).
 */
export async function openBrowser(
  viewport: { width: number; height: number },
  origin: string,
  options: { isMobile?: boolean } = {},
): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No browser at ${CHROMIUM_PATH}: install Debian's chromium (apt-get install -y chromium); .ci/run does it in CI`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'seo-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport,
      deviceScaleFactor: 1,
      isMobile: options.isMobile ?? false,
      hasTouch: options.isMobile ?? false,
      permissions: ['clipboard-read', 'clipboard-write'],
      timeout: 60_000,
    });
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Collects what should not happen on a page: script errors, console errors, and failed loads
 * of sub-resources (4xx/5xx; documents are checked by the tests themselves; the browser's own
 * /favicon.ico is not ours). Dialogs are dismissed and recorded too.
 */
export function watchPage(page: Page): string[] {
  const problems: string[] = [];
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
      problems.push(`console error: ${msg.text()}`);
  });
  page.on('response', (res) => {
    const { pathname } = new URL(res.url());
    if (
      res.status() >= 400 &&
      res.request().resourceType() !== 'document' &&
      pathname !== '/favicon.ico'
    )
      problems.push(`${res.status()} for ${res.request().method()} ${pathname}`);
  });
  return problems;
}
