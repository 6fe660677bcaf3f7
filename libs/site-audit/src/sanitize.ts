const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// eslint-disable-next-line no-control-regex
const NUL = /\u0000/g;

/** Longest string stored from a crawled site (titles, descriptions, URLs, details). */
const MAX_STORED_STRING = 4096;

/**
 * Text from crawled sites goes into PostgreSQL text and jsonb, which refuse NUL characters
 * and unpaired surrogates: replace them, and cut very long values.
 */
export function cleanText(value: string, max = MAX_STORED_STRING): string {
  const cleaned = value.replace(NUL, '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
  return cleaned.length > max ? `${cleaned.slice(0, max - 1)}…` : cleaned;
}

export function cleanNullable(
  value: string | null | undefined,
  max = MAX_STORED_STRING,
): string | null {
  return typeof value === 'string' ? cleanText(value, max) : null;
}

/** JSON for a jsonb parameter, every string in it cleaned. */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? cleanText(v) : v));
}

/** A copy of a jsonb value with every string in it cleaned (TypeORM serializes it). */
export function cleanJson<T>(value: T): T {
  return JSON.parse(safeJson(value)) as T;
}

/** A finite integer for an integer column (floats rounded, NaN/Infinity → fallback). */
export function int(value: unknown, fallback = 0): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return fallback;
  return Math.max(-2_147_483_648, Math.min(2_147_483_647, Math.round(n)));
}

/** A finite number for a double column. */
export function num(value: unknown, fallback = 0): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : fallback;
}
