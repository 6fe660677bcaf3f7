import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/core';
import { WebhookJobRecords } from '@app/webhooks';
import { toJobRecord } from './job-record.mapper';
import { JobRecordsRepository } from './job-records.repository';

/** What a job event's webhook sends: the job's record once it has ended (complete or failed). */
@Injectable()
export class JobWebhookRecords implements WebhookJobRecords {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: JobRecordsRepository,
  ) {}

  async finalRecord(jobId: string, accountId: number): Promise<object | null> {
    const job = await this.jobs.findForAccount(jobId, accountId);
    if (!job || (job.status !== 'complete' && job.status !== 'failed')) return null;
    return toJobRecord(job, this.config.publicBaseUrl);
  }
}
