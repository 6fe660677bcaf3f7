import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { APP_CONFIG, AppConfig, MONITORED_QUEUES, sampleQueueDepths } from '@app/core';
import { bullRootOptions } from '@app/site-audit';

/**
 * Read handles on every queue in MONITORED_QUEUES (libs/core), for the queue-depth gauge and
 * the dashboard. Created on first use (one Redis connection per queue), closed on shutdown.
 */
@Injectable()
export class OpsQueues implements OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private queues: Queue[] | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  all(): Queue[] {
    this.queues ??= MONITORED_QUEUES.map((name) => new Queue(name, bullRootOptions(this.config)));
    return this.queues;
  }

  /** Samples `queue_jobs` for every queue (at scrape time). */
  async sample(): Promise<void> {
    const errors = await sampleQueueDepths(this.all());
    for (const err of errors) this.logger.warn({ err }, 'Queue depth could not be read');
  }

  async onApplicationShutdown(): Promise<void> {
    const queues = this.queues ?? [];
    this.queues = null;
    await Promise.all(queues.map((q) => q.close().catch(() => undefined)));
  }
}
