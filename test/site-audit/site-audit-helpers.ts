import { Test } from '@nestjs/testing';
import type { TestingModule } from '@nestjs/testing';
import request from 'supertest';
import { APP_CONFIG, AppConfig, Clock, ManualClock } from '@app/core';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { bearer } from '../helpers/fixtures';

/** The worker (WorkerModule) in this process, sharing the test's config and ManualClock. */
export async function startWorker(config: AppConfig, clock: ManualClock): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule({ imports: [WorkerModule] })
    .overrideProvider(APP_CONFIG)
    .useValue(config)
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  moduleRef.useLogger(false);
  await moduleRef.init();
  return moduleRef;
}

export interface JobPoll {
  status: string;
  progress: number;
  body: Record<string, unknown>;
}

/**
 * Polls GET /api/v1/jobs/:id until the job is complete or failed; returns the last body and
 * every (status, progress) seen on the way.
 */
export async function waitForJob(
  url: string,
  key: string,
  jobId: string,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<{ final: Record<string, unknown>; seen: JobPoll[] }> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const seen: JobPoll[] = [];
  for (;;) {
    const res = await request(url).get(`/api/v1/jobs/${jobId}`).set(bearer(key));
    if (res.status !== 200)
      throw new Error(`poll failed: ${res.status} ${JSON.stringify(res.body)}`);
    const data = res.body.data as Record<string, unknown>;
    seen.push({ status: String(data.status), progress: Number(data.progress), body: data });
    if (data.status === 'complete' || data.status === 'failed') return { final: data, seen };
    if (Date.now() > deadline)
      throw new Error(`job ${jobId} still ${String(data.status)} after the timeout`);
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 100));
  }
}

/** Test accounts poll a lot: no monthly cap and a high per-minute limit. */
export const POLLING_OVERRIDES = {
  api_calls_per_month: 'unlimited',
  requests_per_minute: 100_000,
} as const;
