/**
 * Source of "now". Inject it wherever time decides an outcome (month boundaries, rolling
 * budgets, cache TTLs, deadlines) so tests can move time instead of sleeping.
 */
export abstract class Clock {
  abstract now(): Date;

  /**
   * The time a counting statement (meter, quotas, page budget) uses to decide its month:
   * null means PostgreSQL's `now()`, so the month of every count comes from the database's
   * clock, never from a process's (docs/reliability.md, "Clocks"). Only a test clock
   * (ManualClock) answers a time, so tests can move the month.
   */
  statementTime(): Date | null {
    return null;
  }
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/**
 * A clock tests can set and advance. Counting statements use its time instead of the
 * database's (`statementTime`), so a test moves the month by setting it.
 */
export class ManualClock extends Clock {
  private current: Date;

  constructor(start: Date = new Date()) {
    super();
    this.current = new Date(start.getTime());
  }

  now(): Date {
    return new Date(this.current.getTime());
  }

  set(date: Date | string): void {
    this.current = new Date(date);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }

  override statementTime(): Date | null {
    return this.now();
  }
}
