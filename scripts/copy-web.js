#!/usr/bin/env node
/*
 * The build's last step: copies the pages' non-TypeScript files into dist/ beside the
 * compiled code (tsc copies only what it compiles): templates (`views/**.hbs`) and asset
 * files (`assets/*`: stylesheets, browser scripts, the favicon) of every app. Usage:
 *   node scripts/copy-web.js          (from the repository root; `npm run build` runs it)
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const OUT = path.join(ROOT, 'dist');

function isWebFile(rel) {
  const parts = rel.split(path.sep);
  const dirs = parts.slice(0, -1);
  const name = parts[parts.length - 1];
  if (dirs.includes('views') && name.endsWith('.hbs')) return true;
  return dirs[dirs.length - 1] === 'assets' && /\.(css|js|svg)$/.test(name);
}

let copied = 0;
function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      walk(abs);
      continue;
    }
    const rel = path.relative(ROOT, abs);
    if (!isWebFile(rel)) continue;
    fs.mkdirSync(path.dirname(path.join(OUT, rel)), { recursive: true });
    fs.copyFileSync(abs, path.join(OUT, rel));
    copied++;
  }
}

walk(path.join(ROOT, 'apps'));
if (copied === 0) {
  console.error('copy-web: no templates or assets found under apps/');
  process.exit(1);
}
