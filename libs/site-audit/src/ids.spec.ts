import { isAuditId, isJobId, newAuditId, newJobId } from './ids';

describe('job and audit ids', () => {
  it('are job_/aud_ plus 22 base62 characters (unguessable, ~131 bits)', () => {
    for (let i = 0; i < 200; i++) {
      expect(newJobId()).toMatch(/^job_[0-9A-Za-z]{22}$/);
      expect(newAuditId()).toMatch(/^aud_[0-9A-Za-z]{22}$/);
    }
  });

  it('never repeat in a large sample', () => {
    const ids = new Set(Array.from({ length: 5000 }, () => newJobId()));
    expect(ids.size).toBe(5000);
  });

  it('use every base62 character (no biased alphabet)', () => {
    const seen = new Set(Array.from({ length: 400 }, () => newJobId().slice(4)).join(''));
    expect(seen.size).toBe(62);
  });

  it('recognise only well-formed ids', () => {
    expect(isJobId(newJobId())).toBe(true);
    expect(isAuditId(newAuditId())).toBe(true);
    for (const bad of [
      '',
      'job_',
      'job_short',
      `job_${'a'.repeat(23)}`,
      `aud_${'a'.repeat(22)}`,
      `job_${'-'.repeat(22)}`,
      42,
      null,
    ]) {
      expect(isJobId(bad)).toBe(false);
    }
    expect(isAuditId(`job_${'a'.repeat(22)}`)).toBe(false);
  });
});
