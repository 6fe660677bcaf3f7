import { monthStart, partitionName } from './gsc-partitions.repository';

describe('GSC partition months', () => {
  it('monthStart moves by whole months across year boundaries', () => {
    expect(monthStart('2026-06-15')).toBe('2026-06-01');
    expect(monthStart('2026-06-15', -16)).toBe('2025-02-01');
    expect(monthStart('2026-01-31', -1)).toBe('2025-12-01');
    expect(monthStart('2025-12-01', 1)).toBe('2026-01-01');
    expect(monthStart('2025-11-30', 14)).toBe('2027-01-01');
    expect(monthStart('2026-03-10', -27)).toBe('2023-12-01');
  });

  it('partitions are named gsc_rows_pYYYYMM', () => {
    expect(partitionName('2025-02-01')).toBe('gsc_rows_p202502');
  });
});
