/**
 * The month and day a counting statement (meter, feature quotas, page budget) counts in come
 * from PostgreSQL's clock: the statement's `now()`, never a process's clock, so API processes
 * whose clocks disagree still count in one month (docs/reliability.md, "Clocks"). The
 * parameter is `Clock.statementTime()`: null in production (the database decides); a test
 * clock's time in tests, which move the month by setting their clock.
 */
export function statementTime(param: string): string {
  return `COALESCE(${param}::timestamptz, now())`;
}

/** The first day (UTC) of the statement's month, as a date. */
export function statementMonth(param: string): string {
  return `date_trunc('month', ${statementTime(param)} AT TIME ZONE 'UTC')::date`;
}

/** The statement's UTC day, as a date. */
export function statementDay(param: string): string {
  return `(${statementTime(param)} AT TIME ZONE 'UTC')::date`;
}
