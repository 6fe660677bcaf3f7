import { ManualClock, SystemClock } from './clock';

describe("Clock.statementTime: whose clock decides a count's month", () => {
  it("the production clock answers null: counting statements use PostgreSQL's now()", () => {
    expect(new SystemClock().statementTime()).toBeNull();
  });

  it('a test clock answers its own time, so tests move the month by setting it', () => {
    const clock = new ManualClock(new Date('2026-11-30T23:59:59Z'));
    expect(clock.statementTime()).toEqual(new Date('2026-11-30T23:59:59Z'));
    clock.advance(1000);
    expect(clock.statementTime()).toEqual(new Date('2026-12-01T00:00:00Z'));
  });
});
