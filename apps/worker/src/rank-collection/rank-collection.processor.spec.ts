import type { Queue } from 'bullmq';
import type { AppConfig } from '@app/core';
import { RankCollectionProcessor } from './rank-collection.processor';
import type { RankCollectionService } from './rank-collection.service';
import type { KeywordMetricsService } from './keyword-metrics.service';

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
  const config = {
    rankCollection: { enabled, checkIntervalSeconds: 600, resultsPollSeconds: 60, checkDepth: 100 },
  } as AppConfig;
  const p = new RankCollectionProcessor(
    config,
    queue,
    {} as RankCollectionService,
    {} as KeywordMetricsService,
  );
  const run = jest.fn(() => new Promise<void>(() => undefined));
  Object.defineProperty(p, 'worker', { value: { run } });
  return { p, run };
}

describe('RankCollectionProcessor start', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('starts at once while Redis refuses the scheduler upserts, and schedules once it accepts them', async () => {
    const { queue, upserted } = refusingQueue(2);
    const { p, run } = processor(queue, true);
    expect(p.onApplicationBootstrap()).toBeUndefined(); // nothing to wait for
    expect(run).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1_000 + 2_000 + 10);
    expect(upserted).toEqual([
      ['post-due', 600_000],
      ['collect', 60_000],
      ['refresh-metrics', 600_000],
    ]);
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

  it('with RANK_COLLECTION_ENABLED=false neither schedules nor takes jobs', async () => {
    const { queue, upserted } = refusingQueue(0);
    const { p, run } = processor(queue, false);
    p.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(run).not.toHaveBeenCalled();
    expect(upserted).toEqual([]);
  });
});
