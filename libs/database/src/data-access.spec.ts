import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The data-access rule (docs/architecture.md, "Data access"): only classes named `*Repository` run SQL,
 * and only through `Sql`. Everything outside libs/database is scanned.
 */
const ROOT = join(__dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

const files = [...sources(join(ROOT, 'apps')), ...sources(join(ROOT, 'libs'))]
  .map((path) => relative(ROOT, path))
  .filter((path) => !path.startsWith('libs/database/'));

/** Readiness checks ping the server (`sql.ping()`), no statement of their own. */
const PING_ONLY = ['apps/api/src/health/readiness.ts', 'apps/worker/src/main.ts'];

describe('data access', () => {
  it('no TypeORM connection, manager or query runner is used outside libs/database', () => {
    const offenders = files.filter((path) =>
      /\b(DataSource|EntityManager|QueryRunner|InjectDataSource|InjectRepository|InjectEntityManager)\b/.test(
        readFileSync(join(ROOT, path), 'utf8'),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('only *.repository.ts files hold Sql (statements live in repositories)', () => {
    const offenders = files.filter(
      (path) =>
        /\bSql(Tx|Scope)?\b/.test(readFileSync(join(ROOT, path), 'utf8')) &&
        !path.endsWith('.repository.ts') &&
        !PING_ONLY.includes(path),
    );
    expect(offenders).toEqual([]);
  });

  it('the ping-only exceptions run no statement', () => {
    for (const path of PING_ONLY) {
      const text = readFileSync(join(ROOT, path), 'utf8');
      expect(text).not.toMatch(/\.(rows|one|run|prepared|transaction|repository)\(/);
    }
  });

  it('every repository class is named *Repository', () => {
    const misnamed = files
      .filter((path) => path.endsWith('.repository.ts'))
      .filter(
        (path) => !/export class \w+Repository\b/.test(readFileSync(join(ROOT, path), 'utf8')),
      );
    expect(misnamed).toEqual([]);
  });
});
