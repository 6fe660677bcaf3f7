import { OneOf, PG_INT_MAX, QueryInt } from '@app/gateway';
import { MAX_WAIT_SECONDS } from './job-long-poll.service';

export class JobQueryDto {
  @QueryInt(0, MAX_WAIT_SECONDS, {
    optional: true,
    api: {
      default: 0,
      example: 60,
      description:
        'Long-poll: wait up to this many seconds for the job to reach complete or failed, then answer ' +
        'with the current record (0 = answer at once). One API call however long it waits. ' +
        'Recommended: 60.',
    },
  })
  wait: number = 0;
}

/** The job states GET /jobs?status= filters on. */
export const JOB_STATUSES = ['queued', 'running', 'complete', 'failed'] as const;

/** GET /api/v1/jobs: the account's jobs, newest first (an extension of the spec). */
export class JobListQueryDto {
  @OneOf(JOB_STATUSES, {
    optional: true,
    message: `status must be one of ${JOB_STATUSES.join(', ')}`,
    api: { description: 'Only jobs in this state (default: all)' },
  })
  status?: (typeof JOB_STATUSES)[number];

  @QueryInt(1, 100, { optional: true, api: { default: 20, description: 'Jobs per page' } })
  limit: number = 20;

  @QueryInt(0, PG_INT_MAX, {
    optional: true,
    api: { default: 0, description: 'Jobs to skip (newest first)' },
  })
  offset: number = 0;
}
