import type { Response } from 'express';
import type { Upserted } from '@app/database';

/** The answer of a create that finds the record it would make: 201 when created, else 200. */
export function createdOrFound<T>(res: Response, { row, created }: Upserted<T>): T {
  res.status(created ? 201 : 200);
  return row;
}
