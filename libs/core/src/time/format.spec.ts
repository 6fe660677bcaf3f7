import {
  isoTimestamp,
  monthAfter,
  monthStart,
  nextMonthStart,
  parsePlainDate,
  parseRecordTimestamp,
  plainDate,
  recordTimestamp,
} from './format';

describe('time formats', () => {
  const d = new Date(Date.UTC(2026, 11, 31, 23, 5, 9, 42));

  it('meta.timestamp is ISO 8601 with an explicit offset', () => {
    expect(isoTimestamp(d)).toBe('2026-12-31T23:05:09.042+00:00');
  });

  it('record timestamps are YYYY-MM-DD HH:MM:SS in UTC', () => {
    expect(recordTimestamp(d)).toBe('2026-12-31 23:05:09');
    expect(recordTimestamp(null)).toBeNull();
  });

  it('plain dates are YYYY-MM-DD', () => {
    expect(plainDate(d)).toBe('2026-12-31');
  });

  it('month boundaries roll over the year', () => {
    expect(plainDate(monthStart(d))).toBe('2026-12-01');
    expect(plainDate(nextMonthStart(d))).toBe('2027-01-01');
  });

  it("resets_at is the first of the month after a statement's month", () => {
    expect(monthAfter('2026-12-01')).toBe('2027-01-01');
    expect(monthAfter('2026-11-01')).toBe('2026-12-01');
    expect(monthAfter('2024-02-01')).toBe('2024-03-01');
  });

  it('parses only real calendar dates', () => {
    expect(plainDate(parsePlainDate('2024-02-29')!)).toBe('2024-02-29');
    expect(parsePlainDate('2023-02-29')).toBeNull();
    expect(parsePlainDate('2023-2-1')).toBeNull();
    expect(parsePlainDate('2023-02-01T00:00')).toBeNull();
  });

  it('parses only real record timestamps (YYYY-MM-DD HH:MM:SS, UTC)', () => {
    expect(recordTimestamp(parseRecordTimestamp('2024-02-29 23:59:59'))).toBe(
      '2024-02-29 23:59:59',
    );
    expect(parseRecordTimestamp('2023-02-29 00:00:00')).toBeNull();
    expect(parseRecordTimestamp('2026-01-01 24:00:00')).toBeNull();
    expect(parseRecordTimestamp('2026-01-01T06:00:00')).toBeNull();
    expect(parseRecordTimestamp('2026-01-01 6:00:00')).toBeNull();
  });
});
