/**
 * Where a job event's delivery finds its `data` when it is sent: the job's final record (read
 * at send time, so it is the final one), or null when the job is gone or has not ended.
 * Provided by the feature that owns the jobs (libs/site-audit, through
 * `WebhooksModule.register`); webhooks know nothing of jobs beyond this.
 */
export abstract class WebhookJobRecords {
  abstract finalRecord(jobId: string, accountId: number): Promise<object | null>;
}
