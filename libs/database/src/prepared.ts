import type { Pool, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';

/**
 * Runs a hot-path statement as a named prepared statement on the driver's pg pool: the
 * server parses and plans it once per connection instead of once per call, and the call
 * skips TypeORM's per-query runner. Use it only for single statements on the request path.
 */
export async function preparedRows<T extends QueryResultRow>(
  db: DataSource,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const pool = (db.driver as unknown as { master: Pool }).master;
  const result = await pool.query<T>({ name, text, values });
  return result.rows;
}
