import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** .env.example documents every variable the typed config reads (a new one must be added there). */
describe('.env.example', () => {
  it('lists every setting loadConfig reads', () => {
    // app-config.ts assembles the parts (parts/*.config.ts), each reading its variables as `e.X`.
    const files = readdirSync(join(__dirname, 'parts')).filter((f) => f.endsWith('.config.ts'));
    const source = ['app-config.ts', ...files.map((f) => join('parts', f))]
      .map((f) => readFileSync(join(__dirname, f), 'utf8'))
      .join('\n');
    const read = new Set([...source.matchAll(/\be\.([A-Z][A-Z0-9_]*)\b/g)].map((m) => m[1]));
    const example = readFileSync(join(__dirname, '../../../../.env.example'), 'utf8');
    const listed = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
    expect(read.size).toBeGreaterThan(40);
    expect([...read].filter((v) => !listed.has(v)).sort()).toEqual([]);
  });
});
