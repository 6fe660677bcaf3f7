import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * No import cycle between folders: the feature folders of apps/api/src (account-area, oauth,
 * usage, …), the other apps (apps/worker, apps/mcp) and the libraries (libs/<name>) form a
 * graph with no loop. Files of the API's root (main.ts, api.module.ts, app.setup.ts) put the
 * features together and are left out; so are the tests (*.spec.ts). Imports are read as
 * text (static `import`/`export … from`, `import()` and `require()` of a string).
 */
const ROOT = resolve(__dirname, '../../..');

/** Every source file under `dir` (no tests, no declarations). */
function sourceFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f));
}

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

/** The module specifiers a file imports. */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(SPECIFIER)) found.push(m[1] ?? m[2] ?? m[3]);
  return found;
}

/** The folder a repository path belongs to, or null when it is outside the graph. */
export function folderOf(path: string): string | null {
  const parts = path.split(sep).join('/').split('/');
  if (parts[0] === 'libs' && parts.length > 2) return `libs/${parts[1]}`;
  if (parts[0] === 'apps' && parts[1] === 'api' && parts[2] === 'src') {
    return parts.length > 4 ? `apps/api/src/${parts[3]}` : null; // root files compose
  }
  if (parts[0] === 'apps' && parts.length > 2) return `apps/${parts[1]}`;
  return null;
}

/** The folder an import resolves to: `@app/<lib>` or a relative path; null for packages. */
function targetOf(fromFile: string, specifier: string): string | null {
  const lib = /^@app\/([^/]+)/.exec(specifier);
  if (lib) return `libs/${lib[1]}`;
  if (!specifier.startsWith('.')) return null;
  return folderOf(relative(ROOT, resolve(dirname(fromFile), specifier)) + '/x');
}

/** Folder → the folders it imports (itself left out). */
export function folderGraph(files: string[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = folderOf(relative(ROOT, file));
    if (from === null) continue;
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      const to = targetOf(file, spec);
      if (to !== null && to !== from) edges.add(to);
    }
  }
  return graph;
}

/** The graph's cycles: its strongly connected components of more than one folder (Tarjan). */
export function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let top: string;
    do {
      top = stack.pop()!;
      onStack.delete(top);
      component.push(top);
    } while (top !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('import cycles between folders', () => {
  const graph = folderGraph([
    ...sourceFiles(join(ROOT, 'apps')),
    ...sourceFiles(join(ROOT, 'libs')),
  ]);

  it('reads the whole tree: every feature folder and library is in the graph', () => {
    for (const folder of ['apps/api/src/oauth', 'apps/api/src/account-area', 'libs/gateway']) {
      expect(graph.has(folder)).toBe(true);
    }
    expect(graph.get('apps/api/src/oauth')).toContain('libs/oauth');
    expect(graph.get('libs/gateway')).toContain('libs/core');
  });

  it('has no cycle among the API feature folders, the apps and the libraries', () => {
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const looped = new Map<string, Set<string>>([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a', 'd'])],
      ['d', new Set()],
    ]);
    expect(cyclesOf(looped)).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(new Map([['a', new Set(['b'])]]))).toEqual([]);
  });

  it('reads static, re-export, dynamic and side-effect imports', () => {
    const source = [
      "import { A } from '../oauth/x';",
      "import type { B } from '@app/core';",
      "export { C } from './c';",
      "const d = require('../usage/d');",
      "import './side-effect';",
      "await import('../mcp/e');",
    ].join('\n');
    expect(importsOf(source).sort()).toEqual(
      ['../oauth/x', '@app/core', './c', './side-effect', '../usage/d', '../mcp/e'].sort(),
    );
  });
});
