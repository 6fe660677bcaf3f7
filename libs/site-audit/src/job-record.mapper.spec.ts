import type { JobEntity } from '@app/database';
import { toJobRecord } from './job-record.mapper';
import { JobRecordSchema, SiteAuditJobData } from './job-record.schema';

const base: JobEntity = {
  id: 'job_AAAAAAAAAAAAAAAAAAAAAA',
  accountId: 1,
  endpoint: 'site-audit',
  status: 'queued',
  progress: 0,
  params: { url: 'https://example.com/' },
  data: null,
  error: null,
  attempts: 0,
  quotaPeriodStart: '2026-11-01',
  requestId: 'req-1',
  createdAt: new Date('2026-11-21T10:00:00.123Z'),
  updatedAt: new Date('2026-11-21T10:00:05Z'),
  startedAt: null,
  completedAt: null,
  deadlineAt: new Date('2026-11-21T10:30:00Z'),
  webhookUrl: null,
};

describe('job record mapping', () => {
  it('queued: record timestamps, completed_at null, no data and no error', () => {
    const r = toJobRecord(base, 'https://api.test');
    expect(r).toEqual({
      job_id: base.id,
      endpoint: 'site-audit',
      status: 'queued',
      progress: 0,
      created_at: '2026-11-21 10:00:00',
      updated_at: '2026-11-21 10:00:05',
      completed_at: null,
    });
  });

  it('complete: data with report_url built from the public base URL, progress 100', () => {
    const r = toJobRecord(
      {
        ...base,
        status: 'complete',
        progress: 80,
        completedAt: new Date('2026-11-21T10:02:00Z'),
        data: { audit_id: 'aud_BBBBBBBBBBBBBBBBBBBBBB', domain: 'example.com', pages_crawled: 3 },
      },
      'https://api.test',
    );
    expect(r.progress).toBe(100);
    expect(r.completed_at).toBe('2026-11-21 10:02:00');
    expect(r.data).toMatchObject({
      report_url: 'https://api.test/reports/audits/aud_BBBBBBBBBBBBBBBBBBBBBB',
    });
    expect(r).not.toHaveProperty('error');
  });

  it('failed: error {code, message}, no data, progress kept', () => {
    const r = toJobRecord(
      {
        ...base,
        status: 'failed',
        progress: 40,
        completedAt: new Date('2026-11-21T10:02:00Z'),
        error: { code: 'UNREACHABLE', message: 'The site could not be reached.' },
      },
      'https://api.test',
    );
    expect(r.error).toEqual({ code: 'UNREACHABLE', message: 'The site could not be reached.' });
    expect(r.progress).toBe(40);
    expect(r).not.toHaveProperty('data');
  });

  it('every state maps into the schema the type comes from (every member, nothing more)', () => {
    const stored: SiteAuditJobData = {
      audit_id: 'aud_BBBBBBBBBBBBBBBBBBBBBB',
      domain: 'example.com',
      pages_crawled: 3,
      total_score: 88.5,
      geo_score: 70,
      issues: { critical: 1, warning: 2, total: 3 },
    };
    const ended = { completedAt: new Date('2026-11-21T10:02:00Z') };
    const records = [
      toJobRecord(base, 'https://api.test'),
      toJobRecord({ ...base, status: 'running', progress: 30 }, 'https://api.test'),
      toJobRecord({ ...base, ...ended, status: 'complete', data: stored }, 'https://api.test'),
      toJobRecord({ ...base, ...ended, status: 'failed' }, 'https://api.test'),
    ];
    expect(records[2].data).toEqual({
      ...stored,
      report_url: 'https://api.test/reports/audits/aud_BBBBBBBBBBBBBBBBBBBBBB',
    });
    for (const r of records) expect(JobRecordSchema.parse(r)).toEqual(r);
  });
});
