import type { Response } from 'express';
import { ApiError } from '@app/core';
import type { Upserted } from '@app/database';

/**
 * The one existence check of the admin module: a record the statement did not find (or
 * whose parent does not exist) is a 404 naming what was missing.
 */
export function found<T>(record: T | null | undefined, what: string): T {
  if (record === null || record === undefined) throw ApiError.notFound(what);
  return record;
}

/**
 * The answer of an idempotent create (an upsert on a natural key): 404 when its parent is
 * missing, else 201 when the row was inserted and 200 when it already existed.
 */
export function upsertAnswer<T, V>(
  res: Response,
  result: Upserted<T> | null,
  parent: string,
  view: (row: T) => V,
): V {
  const { row, created } = found(result, parent);
  res.status(created ? 201 : 200);
  return view(row);
}
