import type { Queue } from 'bullmq';
import type { AppConfig } from '@app/core';
import { GscSyncProcessor } from './gsc-sync.processor';
import type { GscSyncService } from './gsc-sync.service';

/** A queue whose first `failures` scheduler upserts are refused, as by a Redis out of memory. */
function refusingQueue(failures: number) {
  const upserted: Array<[string, number]> = [];
  let left = failures;
  const queue = {
    upsertJobScheduler: jest.fn((name: string, repeat: { every: number }) => {
      if (left-- > 0) return Promise.reject(new Error('OOM command not allowed'));
      upserted.push([name, repeat.every]);
      return Promise.resolve({});
    }),
  };
  return { queue: queue as unknown as Queue, upserted };
}

function processor(queue: Queue, enabled: boolean) {
  const config = { gscSync: { enabled, tickSeconds: 15 } } as AppConfig;
  const p = new GscSyncProcessor(config, queue, {} as GscSyncService);
  const run = jest.fn(() => new Promise<void>(() => undefined));
  Object.defineProperty(p, 'worker', { value: { run } });
  return { p, run };
}

describe('GscSyncProcessor start', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('starts at once while Redis refuses the scheduler upsert, and schedules once it accepts it', async () => {
    const { queue, upserted } = refusingQueue(2);
    const { p, run } = processor(queue, true);
    expect(p.onApplicationBootstrap()).toBeUndefined();
    expect(run).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1_000 + 2_000 + 10);
    expect(upserted).toEqual([['sync-due', 15_000]]);
    p.onModuleDestroy();
  });

  it('stops retrying when the worker shuts down', async () => {
    const { queue, upserted } = refusingQueue(1_000);
    const { p } = processor(queue, true);
    p.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(10);
    p.onModuleDestroy();
    const calls = (queue.upsertJobScheduler as jest.Mock).mock.calls.length;
    await jest.advanceTimersByTimeAsync(120_000);
    expect((queue.upsertJobScheduler as jest.Mock).mock.calls.length).toBe(calls);
    expect(upserted).toEqual([]);
  });

  it('with GSC_SYNC_ENABLED=false neither schedules nor takes jobs', async () => {
    const { queue, upserted } = refusingQueue(0);
    const { p, run } = processor(queue, false);
    p.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(run).not.toHaveBeenCalled();
    expect(upserted).toEqual([]);
  });
});
