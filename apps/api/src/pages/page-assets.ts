import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The stylesheets and browser scripts of the pages: real files in an `assets/` folder beside
 * their feature (copied into dist/ by the build, scripts/copy-web.js), served by
 * AssetsController at `/assets/<name>.<content hash>.<ext>` with a year of immutable caching.
 * The pages link the hashed name through the layout's `asset` helper, so a changed file gets
 * a new URL and no browser keeps the old one.
 */

/** The source folder of the API (apps/api/src, or dist/apps/api/src once built). */
export const API_SRC_DIR = join(__dirname, '..');

/** Public name → file, relative to API_SRC_DIR. Only these are ever served. */
const FILES: Readonly<Record<string, string>> = {
  'site.css': 'pages/assets/site.css',
  'report.css': 'site-audit/assets/report.css',
  'console.css': 'account-area/assets/console.css',
  'console-common.js': 'account-area/assets/console-common.js',
  'console-nav.js': 'account-area/assets/console-nav.js',
  'console-usage.js': 'account-area/assets/console-usage.js',
  'console-audits.js': 'account-area/assets/console-audits.js',
  'console-keys.js': 'account-area/assets/console-keys.js',
  'console-rank.js': 'account-area/assets/console-rank.js',
  'console-ai-visibility.js': 'account-area/assets/console-ai-visibility.js',
  'console-connections.js': 'account-area/assets/console-connections.js',
  'console-gsc.js': 'account-area/assets/console-gsc.js',
  'console-webhooks.js': 'account-area/assets/console-webhooks.js',
  'console-alerts.js': 'account-area/assets/console-alerts.js',
  'console-password.js': 'account-area/assets/console-password.js',
  'favicon.svg': 'pages/assets/favicon.svg',
};

const TYPES: Readonly<Record<string, string>> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
};

interface PageAsset {
  /** e.g. `site.css` */
  name: string;
  /** The first 12 hex digits of the SHA-256 of the file. */
  hash: string;
  /** `/assets/site.3f2a9c01b7de.css` */
  url: string;
  type: string;
  body: Buffer;
}

/** Splits `site.3f2a9c01b7de.css` into the name and the hash; null for any other shape. */
export function parseAssetFile(file: string): { name: string; hash: string } | null {
  const m = /^([a-z][a-z0-9-]*)\.([0-9a-f]{12})\.([a-z]+)$/.exec(file);
  return m ? { name: `${m[1]}.${m[3]}`, hash: m[2] } : null;
}

/** Every asset, read and hashed once at start-up (a missing file stops the start). */
export class PageAssets {
  private readonly byName = new Map<string, PageAsset>();

  constructor(root = API_SRC_DIR) {
    for (const [name, file] of Object.entries(FILES)) {
      const body = readFileSync(join(root, file));
      const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
      const dot = name.lastIndexOf('.');
      const ext = name.slice(dot + 1);
      this.byName.set(name, {
        name,
        hash,
        url: `/assets/${name.slice(0, dot)}.${hash}.${ext}`,
        type: TYPES[ext],
        body,
      });
    }
  }

  find(name: string): PageAsset | undefined {
    return this.byName.get(name);
  }

  /** The hashed URL of a known asset (a template naming an unknown one is a bug: it throws). */
  url(name: string): string {
    const asset = this.byName.get(name);
    if (!asset) throw new Error(`Unknown page asset "${name}"`);
    return asset.url;
  }
}
