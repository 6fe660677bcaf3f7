import { QueryInt } from '@app/gateway';
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
