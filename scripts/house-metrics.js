#!/usr/bin/env node
/*
 * The house in figures (docs/house.md): long functions, import cycles between folders, the
 * largest source files, and how many folders a change touches, for the current tree.
 *   npm run house:metrics                  a compact text report
 *   npm run house:metrics -- --json        the same figures as JSON
 *   npm run house:metrics -- --commits 50  the change figures over the last 50 commits (200)
 *   npm run house:metrics -- --range A..B  the change figures over the commits of A..B only
 * Plain Node; parses with the `typescript` package. Reads the work tree and `git log`.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..');
const MAX_FUNCTION_LINES = 42;
const LARGE_FILE_LINES = 400;
const SOURCE_ROOTS = ['apps', 'libs', 'scripts', 'clients/typescript/src'];
/** Tests, frozen migration history, generated files and this measuring tool are not measured. */
const EXCLUDED = [
  /^scripts\/house-metrics\.js$/,
  /\.spec\.ts$/,
  /\.e2e-spec\.ts$/,
  /\.d\.ts$/,
  /^libs\/database\/src\/migrations\//,
  /^clients\/typescript\/src\/schema\.ts$/,
];

function parseArgs(argv) {
  const options = { json: false, commits: 200 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--json') options.json = true;
    else if (argv[i] === '--commits' || argv[i] === '-n') options.commits = Number(argv[++i]);
    else if (argv[i].startsWith('--commits=')) options.commits = Number(argv[i].slice(10));
    else if (argv[i] === '--range') options.range = argv[++i];
    else throw new Error(`unknown option ${argv[i]} (use --json, --commits N, --range A..B)`);
  }
  if (!Number.isInteger(options.commits) || options.commits < 1) {
    throw new Error('--commits takes a positive whole number');
  }
  return options;
}

/** Whether a repository-relative path is a measured source file. */
function isSource(rel) {
  if (EXCLUDED.some((re) => re.test(rel))) return false;
  if (rel.endsWith('.ts')) return true;
  if (!rel.endsWith('.js')) return false;
  return rel.startsWith('scripts/') || /^apps\/[^/]+\/src\/.*\/assets\/[^/]+\.js$/.test(rel);
}

function walk(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(path.relative(ROOT, full).split(path.sep).join('/'));
  }
  return out;
}

function sourceFiles() {
  const files = [];
  for (const root of SOURCE_ROOTS) {
    if (fs.existsSync(path.join(ROOT, root))) walk(path.join(ROOT, root), files);
  }
  return files.filter(isSource).sort();
}

function parse(rel) {
  const text = fs.readFileSync(path.join(ROOT, rel), 'utf8');
  const kind = rel.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  return ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, kind);
}

// ---------------------------------------------------------------------------------------------
// (1) functions over 42 lines

function propertyName(name) {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText();
}

function enclosingClassName(node) {
  for (let p = node.parent; p; p = p.parent) {
    if (ts.isClassDeclaration(p) || ts.isClassExpression(p))
      return p.name ? p.name.text : '(class)';
  }
  return undefined;
}

/** A readable name: Class.method, the variable or property an arrow is assigned to, or (anonymous). */
function functionName(node) {
  const cls = enclosingClassName(node);
  if (ts.isConstructorDeclaration(node)) return `${cls}.constructor`;
  if (ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) {
    const own = propertyName(node.name);
    return cls && ts.isClassLike(node.parent) ? `${cls}.${own}` : own;
  }
  if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node)) {
    if (node.name) return node.name.text;
  }
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) {
    return propertyName(parent.name);
  }
  if (parent && ts.isPropertyDeclaration(parent)) return `${cls}.${propertyName(parent.name)}`;
  if (parent && ts.isCallExpression(parent)) {
    const callee = parent.expression.getText().replace(/\s+/g, ' ');
    return `(callback of ${callee.length > 40 ? `${callee.slice(0, 40)}…` : callee})`;
  }
  return '(anonymous)';
}

function isMeasuredFunction(node) {
  if (ts.isConstructorDeclaration(node)) return Boolean(node.body);
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessor(node) ||
    ts.isSetAccessor(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

/** From the function's own first line (after its decorators, which declare, not run) to its last. */
function lineSpan(source, node) {
  const decorators = ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : [];
  const first = decorators.length
    ? ts.skipTrivia(source.text, decorators[decorators.length - 1].getEnd())
    : node.getStart(source);
  const start = source.getLineAndCharacterOfPosition(first).line;
  const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
  return { line: start + 1, lines: end - start + 1 };
}

function longFunctions(files, parsed) {
  const found = [];
  for (const rel of files) {
    const source = parsed(rel);
    const visit = (node, insideLong) => {
      let long = insideLong;
      if (isMeasuredFunction(node) && (node.body || !ts.isFunctionDeclaration(node))) {
        const span = lineSpan(source, node);
        if (span.lines > MAX_FUNCTION_LINES) {
          found.push({
            file: rel,
            line: span.line,
            name: functionName(node),
            lines: span.lines,
            nested: insideLong,
          });
          long = true;
        }
      }
      ts.forEachChild(node, (child) => visit(child, long));
    };
    visit(source, false);
  }
  return found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

// ---------------------------------------------------------------------------------------------
// (2) import cycles between folders

/** The feature folder a file belongs to: apps/<app>/src/<folder>, libs/<lib>, clients/<x>, scripts. */
function folderOf(rel) {
  const parts = rel.split('/');
  if (parts[0] === 'apps') {
    if (parts[2] !== 'src') return parts.slice(0, 2).join('/');
    return parts.length > 4 ? parts.slice(0, 4).join('/') : parts.slice(0, 3).join('/');
  }
  if (parts[0] === 'libs' || parts[0] === 'clients') return parts.slice(0, 2).join('/');
  return parts[0];
}

function aliasTable() {
  const config = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile).config;
  const paths = (config.compilerOptions && config.compilerOptions.paths) || {};
  return Object.entries(paths).map(([pattern, targets]) => ({
    prefix: pattern.replace(/\*$/, ''),
    wildcard: pattern.endsWith('*'),
    target: targets[0].replace(/\*$/, ''),
  }));
}

/** The repository-relative file an import names, or undefined for a package. */
function resolveImport(fromRel, spec, aliases) {
  let base;
  if (spec.startsWith('.')) base = path.posix.join(path.posix.dirname(fromRel), spec);
  else {
    const alias = aliases.find((a) => (a.wildcard ? spec.startsWith(a.prefix) : spec === a.prefix));
    if (!alias) return undefined;
    base = alias.wildcard ? alias.target + spec.slice(alias.prefix.length) : alias.target;
  }
  const candidates = [base, `${base}.ts`, `${base}.js`, `${base}/index.ts`, `${base}/index.js`];
  return candidates.find(
    (c) => fs.existsSync(path.join(ROOT, c)) && fs.statSync(path.join(ROOT, c)).isFile(),
  );
}

function importSpecifiers(source) {
  const specs = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      specs.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      specs.push(node.moduleReference.expression.text);
    } else if (
      ts.isCallExpression(node) &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const callee = node.expression;
      const dynamic = callee.kind === ts.SyntaxKind.ImportKeyword;
      if (dynamic || (ts.isIdentifier(callee) && callee.text === 'require'))
        specs.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specs;
}

/** Folder → folder edges, each with the imports (file → file) that make it. */
function folderGraph(files, parsed) {
  const aliases = aliasTable();
  const edges = new Map();
  for (const rel of files) {
    const from = folderOf(rel);
    for (const spec of importSpecifiers(parsed(rel))) {
      const target = resolveImport(rel, spec, aliases);
      if (!target || !isSource(target)) continue;
      const to = folderOf(target);
      if (to === from) continue;
      const key = `${from}\u0000${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, imports: [] });
      edges.get(key).imports.push(`${rel} → ${target}`);
    }
  }
  return [...edges.values()];
}

/** Every elementary cycle (Johnson-style search from each node, smallest node first). */
function elementaryCycles(edges) {
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort();
  const next = new Map(
    nodes.map((n) => [
      n,
      edges
        .filter((e) => e.from === n)
        .map((e) => e.to)
        .sort(),
    ]),
  );
  const cycles = [];
  for (const start of nodes) {
    const stack = [start];
    const onPath = new Set([start]);
    const extend = (node) => {
      for (const to of next.get(node)) {
        if (to === start) cycles.push([...stack]);
        else if (to > start && !onPath.has(to) && cycles.length < 500) {
          stack.push(to);
          onPath.add(to);
          extend(to);
          onPath.delete(to);
          stack.pop();
        }
      }
    };
    extend(start);
  }
  return cycles;
}

function importCycles(files, parsed) {
  const edges = folderGraph(files, parsed);
  const edgeOf = new Map(edges.map((e) => [`${e.from}\u0000${e.to}`, e]));
  return elementaryCycles(edges)
    .map((folders) => ({
      folders,
      links: folders.map((from, i) => {
        const to = folders[(i + 1) % folders.length];
        const edge = edgeOf.get(`${from}\u0000${to}`);
        return { from, to, imports: edge.imports.length, examples: edge.imports.slice(0, 3) };
      }),
    }))
    .sort(
      (a, b) =>
        a.folders.length - b.folders.length || a.folders.join().localeCompare(b.folders.join()),
    );
}

// ---------------------------------------------------------------------------------------------
// (3) the largest source files

function largeFiles(files) {
  return files
    .map((file) => ({
      file,
      lines: fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length,
    }))
    .filter((f) => f.lines > LARGE_FILE_LINES)
    .sort((a, b) => b.lines - a.lines);
}

// ---------------------------------------------------------------------------------------------
// (4) folders touched per change, per feature area

/** The top-level feature folder of any changed path (tests, docs and the README included). */
function areaOf(rel) {
  const parts = rel.split('/');
  if (parts[0] === 'apps' || parts[0] === 'libs' || parts[0] === 'clients') return folderOf(rel);
  if (parts[0] === 'test') return parts.length > 2 ? `test/${parts[1]}` : 'test';
  if (parts[0] === 'docs' || rel === 'README.md') return 'docs';
  if (parts.length === 1) return '(root files)';
  return parts[0];
}

function commitsTouching(count, range) {
  const log = execFileSync(
    'git',
    [
      'log',
      '--no-merges',
      `-n${count}`,
      '--name-only',
      '--format=\u0001%h',
      ...(range ? [range] : []),
    ],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return log
    .split('\u0001')
    .filter(Boolean)
    .map((chunk) => {
      const [hash, ...paths] = chunk.split('\n').filter(Boolean);
      return { hash, areas: [...new Set(paths.map(areaOf))].sort() };
    })
    .filter((c) => c.areas.length > 0);
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.max(0, Math.min(sorted.length - 1, rank))];
}

function median(sorted) {
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function foldersPerChange(count, range) {
  const commits = commitsTouching(count, range);
  const perArea = new Map();
  for (const c of commits) {
    for (const area of c.areas) {
      if (!perArea.has(area)) perArea.set(area, []);
      perArea.get(area).push(c.areas.length);
    }
  }
  const summary = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { commits: sorted.length, median: median(sorted), p90: percentile(sorted, 90) };
  };
  const areas = [...perArea.entries()]
    .map(([area, values]) => ({ area, ...summary(values) }))
    .sort((a, b) => a.area.localeCompare(b.area));
  return { commits: commits.length, overall: summary(commits.map((c) => c.areas.length)), areas };
}

// ---------------------------------------------------------------------------------------------
// report

function measure(options) {
  const files = sourceFiles();
  const cache = new Map();
  const parsed = (rel) => {
    if (!cache.has(rel)) cache.set(rel, parse(rel));
    return cache.get(rel);
  };
  const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim();
  const functions = longFunctions(files, parsed);
  return {
    commit: head,
    sourceFiles: files.length,
    longFunctions: {
      threshold: MAX_FUNCTION_LINES,
      count: functions.length,
      outermost: functions.filter((f) => !f.nested).length,
      list: functions,
    },
    importCycles: importCycles(files, parsed),
    largeFiles: { threshold: LARGE_FILE_LINES, list: largeFiles(files) },
    foldersPerChange: {
      lastCommits: options.commits,
      range: options.range || 'HEAD',
      ...foldersPerChange(options.commits, options.range),
    },
  };
}

function textReport(m) {
  const out = [`The house in figures at ${m.commit} (${m.sourceFiles} source files measured)`, ''];
  const lf = m.longFunctions;
  out.push(
    `Functions over ${lf.threshold} lines: ${lf.count} (${lf.outermost} not inside another one listed; + marks the nested)`,
  );
  for (const f of lf.list) {
    out.push(
      `  ${String(f.lines).padStart(4)}${f.nested ? '+' : ' '} ${f.name}  ${f.file}:${f.line}`,
    );
  }
  out.push('', `Import cycles between folders: ${m.importCycles.length}`);
  for (const c of m.importCycles) {
    out.push(`  ${[...c.folders, c.folders[0]].join(' → ')}`);
    for (const l of c.links)
      out.push(`      ${l.from} → ${l.to}: ${l.imports} import(s), e.g. ${l.examples[0]}`);
  }
  out.push('', `Source files over ${m.largeFiles.threshold} lines: ${m.largeFiles.list.length}`);
  for (const f of m.largeFiles.list) out.push(`  ${String(f.lines).padStart(5)}  ${f.file}`);
  const fc = m.foldersPerChange;
  out.push(
    '',
    `Folders touched per change (${fc.commits} non-merge commits of ${fc.range}, at most ${fc.lastCommits}):`,
  );
  out.push(`  all commits: median ${fc.overall.median}, p90 ${fc.overall.p90}`);
  out.push('  per area the commit touched (commits, median, p90):');
  for (const a of fc.areas)
    out.push(`    ${a.area.padEnd(34)} ${String(a.commits).padStart(4)}  ${a.median}  ${a.p90}`);
  return out.join('\n');
}

function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`house-metrics: ${e.message}\n`);
    process.exit(2);
  }
  const m = measure(options);
  process.stdout.write(options.json ? `${JSON.stringify(m, null, 2)}\n` : `${textReport(m)}\n`);
}

main();
