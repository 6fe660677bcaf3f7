import stored from './openapi-examples.json';

/**
 * The success examples of the public document: each operation's real answer to its sample
 * call, recorded by `npm run openapi:examples` (apps/api/src/cli/openapi-examples.ts) against
 * the sandbox provider and the demo account's data, and kept in openapi-examples.json beside
 * this file. publicDocument() attaches each as the `example` of the operation's success
 * response. test/docs/openapi-examples.e2e-spec.ts validates them against the served
 * schemas, fails on an operation without one, and re-records them to compare their shape.
 */
export interface RecordedAnswer {
  status: number;
  body: unknown;
}

export const RECORDED_ANSWERS: Readonly<Record<string, RecordedAnswer>> = stored as Record<
  string,
  RecordedAnswer
>;

/** The request id and time every recorded answer shows (those of the error examples). */
export const EXAMPLE_META = {
  timestamp: '2026-11-24T09:30:00.000+00:00',
  request_id: 'req_8f14e45fceea167a',
} as const;

/** Items kept of each list in an example (a page of 20 keywords shows its first 3). */
export const EXAMPLE_LIST_ITEMS = 3;

/**
 * A recorded answer as the document shows it: `meta.timestamp` and `meta.request_id` (new on
 * every call) replaced by EXAMPLE_META's, every list cut to its first EXAMPLE_LIST_ITEMS items.
 * Counts and totals stay the real ones.
 */
export function exampleOf(body: unknown): unknown {
  const cut = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.slice(0, EXAMPLE_LIST_ITEMS).map(cut);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, cut(v)]));
  };
  const out = cut(body) as { meta?: Record<string, unknown> };
  if (out?.meta && typeof out.meta === 'object') {
    if ('timestamp' in out.meta) out.meta.timestamp = EXAMPLE_META.timestamp;
    if ('request_id' in out.meta) out.meta.request_id = EXAMPLE_META.request_id;
  }
  return out;
}

/**
 * The shape of a JSON value: its type, an object's members (sorted) with theirs, a list's
 * first item's. null matches any type (a nullable member is null in one answer, set in
 * another), and so does an empty list's item.
 */
export type Shape = string | { [member: string]: Shape } | [Shape];

export function shapeOf(value: unknown): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) return [value.length ? shapeOf(value[0]) : 'null'];
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
    );
  return typeof value;
}

/** Where two shapes differ ("data.keywords[].position: number vs string"); [] when alike. */
export function shapeDifferences(a: Shape, b: Shape, at = ''): string[] {
  if (a === 'null' || b === 'null') return [];
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return [`${at}: ${kind(a)} vs ${kind(b)}`];
    return shapeDifferences(a[0], b[0], `${at}[]`);
  }
  if (typeof a === 'string' || typeof b === 'string')
    return a === b ? [] : [`${at}: ${kind(a)} vs ${kind(b)}`];
  const out: string[] = [];
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const path = at ? `${at}.${k}` : k;
    if (!(k in a)) out.push(`${path}: missing from the first`);
    else if (!(k in b)) out.push(`${path}: missing from the second`);
    else out.push(...shapeDifferences(a[k], b[k], path));
  }
  return out;
}

const kind = (s: Shape): string =>
  typeof s === 'string' ? s : Array.isArray(s) ? 'array' : 'object';
