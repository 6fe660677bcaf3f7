import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const REPO = join(__dirname, '../..');
export const CLIENT_DIR = join(REPO, 'clients/typescript');

export interface ClientBuild {
  /** The build's directory (under clients/typescript/.test-build, so its imports resolve). */
  dir: string;
  /** file: URL of the ES module build's entry. */
  esmUrl: string;
  /** Path of the CommonJS build's entry. */
  cjsPath: string;
  remove: () => void;
}

/**
 * Builds @seo-api/client (ESM and CJS, with the package's own tsconfigs) into a fresh
 * directory of its own, so parallel test files never share or clobber a build, and the
 * builds' bare imports (openapi-fetch) resolve from the repository's node_modules.
 */
export function buildClient(): ClientBuild {
  const parent = join(CLIENT_DIR, '.test-build');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'build-'));
  const tsc = join(REPO, 'node_modules/typescript/bin/tsc');
  for (const [config, out, type] of [
    ['tsconfig.esm.json', 'esm', 'module'],
    ['tsconfig.cjs.json', 'cjs', 'commonjs'],
  ] as const) {
    const run = spawnSync(
      process.execPath,
      [tsc, '-p', join(CLIENT_DIR, config), '--outDir', join(dir, out)],
      { encoding: 'utf8' },
    );
    if (run.status !== 0)
      throw new Error(`client build (${out}) failed: ${run.stdout}${run.stderr}`);
    writeFileSync(join(dir, out, 'package.json'), `{ "type": "${type}" }\n`);
  }
  return {
    dir,
    esmUrl: pathToFileURL(join(dir, 'esm/index.js')).href,
    cjsPath: join(dir, 'cjs/index.js'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
