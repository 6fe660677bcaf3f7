/**
 * What an upsert answers: the stored row and whether the statement inserted it (201) or
 * updated an existing one (200). Statements read it as
 * `INSERT … ON CONFLICT … DO UPDATE … RETURNING <columns>, (xmax = 0) AS created`
 * (PostgreSQL: a freshly inserted row version has no deleting transaction, xmax = 0).
 */
export interface Upserted<T> {
  row: T;
  created: boolean;
}

/** Splits the `created` flag off an upsert's RETURNING row; null when nothing was written. */
export function upserted<T extends object>(
  returned: (T & { created: boolean }) | undefined,
): Upserted<T> | null {
  if (!returned) return null;
  const { created, ...row } = returned;
  return { row: row as unknown as T, created };
}
