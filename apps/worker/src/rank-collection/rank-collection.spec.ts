import { marketBatches } from './keyword-metrics.service';
import type { AppConfig, Clock } from '@app/core';
import type { RankCheckInput } from '@app/database';
import type { DfsSerpResult, DomainMatch, SerpProvider } from '@app/providers';
import { RankCollectionService, parseTaskTag, taskTag } from './rank-collection.service';
import type { OpenTask, SerpTasksRepository } from '@app/database';

describe('rank collection helpers', () => {
  it('a task tag carries the keyword and its day, and reads back', () => {
    const tag = taskTag(42, '2026-09-01', 2);
    expect(tag).toBe('rk:42:2026-09-01:2');
    expect(parseTaskTag(tag)).toEqual({ keywordId: 42, day: '2026-09-01', attempt: 2 });
    expect(parseTaskTag('kw_42|2026-09-01|desktop')).toBeNull();
    expect(parseTaskTag(null)).toBeNull();
  });

  it('metrics batches hold keywords of one market, at most 700 each', () => {
    const row = (id: number, country: string, language = 'en') => ({
      id,
      account_id: 1,
      keyword: `k${id}`,
      country,
      language,
    });
    const due = [
      ...Array.from({ length: 701 }, (_, i) => row(i, 'GB')),
      row(1000, 'US'),
      row(1001, 'US', 'es'),
    ];
    const batches = marketBatches(due);
    expect(batches.map((b) => [b[0].country, b[0].language, b.length])).toEqual([
      ['GB', 'en', 700],
      ['GB', 'en', 1],
      ['US', 'en', 1],
      ['US', 'es', 1],
    ]);
  });
});

describe('rank collection: the project match decides which host ranks', () => {
  // A SERP where a subdomain (rank 1) ranks above the exact host (rank 2).
  const result: DfsSerpResult = {
    datetime: '2026-09-01 06:00:00 +00:00',
    items: [
      {
        type: 'organic',
        rank_group: 1,
        domain: 'blog.example.com',
        url: 'https://blog.example.com/a',
      },
      {
        type: 'organic',
        rank_group: 2,
        domain: 'www.example.com',
        url: 'https://www.example.com/b',
      },
    ],
  };

  /** Collects one ready task of a project with `match` and answers the check it stored. */
  async function collected(match: DomainMatch): Promise<RankCheckInput> {
    const task: OpenTask = {
      keyword_id: 7,
      check_date: '2026-09-01',
      task_id: 't-7',
      domain: 'example.com',
      match,
    };
    const stored: RankCheckInput[] = [];
    const tasks = {
      expire: () => Promise.resolve({ givenUp: 0 }),
      openTask: () => Promise.resolve(task),
      openTasks: () => Promise.resolve(new Map()),
      overdue: () => Promise.resolve([]),
      storeCollectedAll: (items: Array<{ task: OpenTask; check: RankCheckInput }>) => {
        stored.push(...items.map((i) => i.check));
        return Promise.resolve({
          stored: new Set(items.map((i) => `${i.task.keyword_id}:${i.task.check_date}`)),
          failed: new Map(),
          batchError: null,
        });
      },
    } as unknown as SerpTasksRepository;
    const serp = {
      tasksReady: () => Promise.resolve([{ id: 't-7', tag: taskTag(7, '2026-09-01', 1) }]),
      taskGet: () => Promise.resolve({ kind: 'done', result }),
    } as unknown as SerpProvider;
    const clock = { now: () => new Date('2026-09-01T07:00:00Z') } as Clock;
    const config = {
      rankCollection: { checkDepth: 100, postback: { baseUrl: undefined, secret: undefined } },
    } as AppConfig;
    const service = new RankCollectionService(config, tasks, serp, clock);
    await service.collect();
    expect(stored).toHaveLength(1);
    return stored[0];
  }

  it('domain: a subdomain ranks for the project', async () => {
    const check = await collected('domain');
    expect(check.position).toBe(1);
    expect(check.landing_page).toBe('https://blog.example.com/a');
  });

  it('exact_host: only the exact normalised host ranks (www. ignored)', async () => {
    const check = await collected('exact_host');
    expect(check.position).toBe(2);
    expect(check.landing_page).toBe('https://www.example.com/b');
  });
});
