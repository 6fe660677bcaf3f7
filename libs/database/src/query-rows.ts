import { DataSource, EntityManager } from 'typeorm';

/**
 * Runs raw SQL and returns its rows. TypeORM's raw `query()` returns `[rows, rowCount]` for
 * a top-level UPDATE or DELETE but plain rows for everything else; this evens that out so
 * `UPDATE ... RETURNING` reads like any other statement.
 */
export async function queryRows<T>(
  db: DataSource | EntityManager,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const raw: unknown = await db.query(sql, params);
  if (
    Array.isArray(raw) &&
    raw.length === 2 &&
    Array.isArray(raw[0]) &&
    typeof raw[1] === 'number'
  ) {
    return raw[0] as T[];
  }
  return raw as T[];
}
