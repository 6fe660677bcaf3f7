/**
 * The one place that formats time for the API:
 * - meta.timestamp: ISO 8601 with an explicit offset (always UTC, "+00:00")
 * - record timestamps: "YYYY-MM-DD HH:MM:SS" (UTC)
 * - plain dates: "YYYY-MM-DD" (UTC)
 */
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export function isoTimestamp(date: Date): string {
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}` +
    `.${pad(date.getUTCMilliseconds(), 3)}+00:00`
  );
}

export function recordTimestamp(date: Date): string;
export function recordTimestamp(date: Date | null | undefined): string | null;
export function recordTimestamp(date: Date | null | undefined): string | null {
  if (!date) return null;
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  );
}

export function plainDate(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** First day (UTC) of the calendar month that contains `date`. */
export function monthStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}

/** First day (UTC) of the calendar month after the one that contains `date`. */
export function nextMonthStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
}

/**
 * The first day of the month after `periodStart` (YYYY-MM-DD, a month's first day as the
 * counting statements answer it): a quota's or the meter's `resets_at`.
 */
export function monthAfter(periodStart: string): string {
  const [y, m] = periodStart.split('-').map(Number);
  return plainDate(new Date(Date.UTC(y, m, 1)));
}

/** Adds whole UTC days to a date. */
export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses a strict YYYY-MM-DD calendar date (UTC midnight), or returns null. */
export function parsePlainDate(value: string): Date | null {
  const m = PLAIN_DATE.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) {
    return null;
  }
  return date;
}

const RECORD_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Parses a strict `YYYY-MM-DD HH:MM:SS` (UTC) record timestamp, or returns null. */
export function parseRecordTimestamp(value: string): Date | null {
  const m = RECORD_TIMESTAMP.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (
    date.getUTCFullYear() !== y ||
    date.getUTCMonth() !== mo - 1 ||
    date.getUTCDate() !== d ||
    date.getUTCHours() !== h ||
    date.getUTCMinutes() !== mi ||
    date.getUTCSeconds() !== s
  ) {
    return null;
  }
  return date;
}
