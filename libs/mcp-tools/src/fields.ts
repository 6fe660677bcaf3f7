import { z } from 'zod';
import { ApiResult, isRecord } from './backend';

/**
 * The optional `fields` argument of the tools with large answers: keeps only the named
 * members of each row of one list (data.backlinks, data.related_keywords, data.rows,
 * data.keywords), so an answer fits an assistant's context. Without it the data is whole.
 * The REST call is the same either way (fields is never sent to the API): the cost is the same.
 */
export const fieldsArg = (rows: string, example: string[]) =>
  z
    .array(
      z
        .string()
        .min(1)
        .max(64)
        .regex(/^[A-Za-z0-9_]+$/, 'must be a member name such as ' + example[0]),
    )
    .min(1)
    .max(50)
    .optional()
    .describe(
      `Keep only these members of each row of data.${rows} (e.g. ${JSON.stringify(example)}) to shorten the answer; ` +
        'omit for complete rows. Names that a row does not have are left out; other members of data are unchanged.',
    );

/** The result with each row of data[rows] reduced to the named members (in the order given). */
export function pickFields(
  result: ApiResult,
  rows: string,
  fields: string[] | undefined,
): ApiResult {
  if (!fields || !result.ok || !isRecord(result.data)) return result;
  const list = result.data[rows];
  if (!Array.isArray(list)) return result;
  const picked = list.map((row: unknown) => {
    if (!isRecord(row)) return row;
    const out: Record<string, unknown> = {};
    for (const name of fields) if (Object.hasOwn(row, name)) out[name] = row[name];
    return out;
  });
  return { ...result, data: { ...result.data, [rows]: picked } };
}

/** The arguments without `fields` (what goes to the REST call). */
export function withoutFields<T extends { fields?: unknown }>(args: T): Omit<T, 'fields'> {
  const { fields: _fields, ...rest } = args;
  return rest;
}
