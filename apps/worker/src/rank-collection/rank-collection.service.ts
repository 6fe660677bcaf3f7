import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock, metrics, plainDate } from '@app/core';
import {
  MARKETS,
  SERP_TASK_POST_ENDPOINT,
  SERP_TASKS_PER_POST,
  SerpPosted,
  SerpProvider,
  SerpTaskRequest,
  noResultsCheck,
  serpCheck,
} from '@app/providers';
import { ClaimedKeyword, OpenTask, PostRecord, SerpTasksRepository } from './serp-tasks.repository';

/** A task's tag: `rk:<keyword id>:<YYYY-MM-DD>:<attempt>` (echoed by tasks_ready). */
export const taskTag = (keywordId: number, day: string, attempt: number) =>
  `rk:${keywordId}:${day}:${attempt}`;

export function parseTaskTag(tag: string | null): { keywordId: number; day: string } | null {
  const m = /^rk:(\d+):(\d{4}-\d{2}-\d{2}):\d+$/.exec(tag ?? '');
  return m ? { keywordId: Number(m[1]), day: m[2] } : null;
}

/** Most batches of 100 one post run sends (50,000 keywords). */
const MAX_BATCHES_PER_RUN = 500;
/** Most overdue tasks one collect run asks about directly. */
const OVERDUE_PER_RUN = 100;
/** A posted task missing from tasks_ready this long is asked about directly. */
const OVERDUE_AFTER_MS = 15 * 60_000;
/** A claim not posted within this is released (its worker stopped between claim and post). */
const CLAIM_EXPIRY_MS = 30 * 60_000;
const DAY_MS = 86_400_000;

const label = { endpoint: SERP_TASK_POST_ENDPOINT };

export interface PostRunResult {
  claimed: number;
  posted: number;
  failed: number;
}

export interface CollectRunResult {
  collected: number;
  pending: number;
  failed: number;
  givenUp: number;
}

/**
 * Rank collection (docs/rank-collection.md): posts every keyword due today to the SERP
 * standard queue (claimed first, so exactly one task per keyword and UTC day), collects the
 * finished tasks and stores their checks through the rank write path.
 */
@Injectable()
export class RankCollectionService {
  private readonly logger = new Logger(RankCollectionService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tasks: SerpTasksRepository,
    private readonly serp: SerpProvider,
    private readonly clock: Clock,
  ) {}

  /** Claims and posts the keywords due today, 100 per request, until none is left. */
  async postDue(): Promise<PostRunResult> {
    const result: PostRunResult = { claimed: 0, posted: 0, failed: 0 };
    for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
      const now = this.clock.now();
      const day = plainDate(now);
      const claimed = await this.tasks.claimDue(day, now, SERP_TASKS_PER_POST);
      if (!claimed.length) break;
      result.claimed += claimed.length;
      const answers = await this.serp.postTasks(claimed.map((k) => this.request(k, day)));
      const records = claimed.map((k, i) => postRecord(k, answers[i]));
      await this.tasks.recordPosted(day, SERP_TASK_POST_ENDPOINT, records, this.clock.now());
      for (const r of records) this.count(r);
      result.posted += records.filter((r) => r.taskId !== null).length;
      result.failed += records.filter((r) => r.taskId === null).length;
    }
    if (result.claimed) this.logger.log({ ...result }, 'Rank collection: SERP tasks posted');
    return result;
  }

  private request(k: ClaimedKeyword, day: string): SerpTaskRequest {
    const market = MARKETS.find((m) => m.country_iso === k.country.toUpperCase());
    return {
      tag: taskTag(k.keyword_id, day, k.attempts),
      keyword: k.keyword,
      // An unknown country is sent as location 0: the provider refuses it (405xx → status error).
      locationCode: market?.location_code ?? 0,
      languageCode: k.language,
      device: k.device === 'mobile' ? 'mobile' : 'desktop',
      depth: this.config.rankCollection.checkDepth,
      target: k.domain,
    };
  }

  private count(r: PostRecord): void {
    if (r.cost > 0) metrics.providerSpendUsd.inc(label, r.cost);
    const result = r.taskId ? 'posted' : r.failure?.refused ? 'refused' : 'failed';
    metrics.providerTasks.inc({ ...label, result });
  }

  /**
   * Gives up what is over 24 hours old, then collects the tasks tasks_ready lists and the
   * posted ones it has not listed for a while (a task fetched by a worker that stopped
   * before storing it leaves tasks_ready).
   */
  async collect(): Promise<CollectRunResult> {
    const now = this.clock.now();
    const expired = await this.tasks.expire(
      new Date(now.getTime() - DAY_MS),
      new Date(now.getTime() - CLAIM_EXPIRY_MS),
      now,
    );
    if (expired.givenUp)
      metrics.providerTasks.inc({ ...label, result: 'given_up' }, expired.givenUp);
    const result: CollectRunResult = {
      collected: 0,
      pending: 0,
      failed: 0,
      givenUp: expired.givenUp,
    };
    const seen = new Set<string>();
    const listed = await this.serp.tasksReady().catch((err: unknown) => {
      this.logger.warn(
        { err },
        'Rank collection: tasks_ready failed; asking about overdue tasks only',
      );
      return [];
    });
    for (const ready of listed) {
      const tag = parseTaskTag(ready.tag);
      const task = await this.tasks.openTask(
        ready.id,
        tag?.keywordId ?? null,
        tag?.day ?? null,
        now,
      );
      if (task) await this.collectOne(task, result, seen);
    }
    const overdue = await this.tasks.overdue(
      new Date(now.getTime() - OVERDUE_AFTER_MS),
      OVERDUE_PER_RUN,
    );
    for (const task of overdue) await this.collectOne(task, result, seen);
    if (result.collected || result.failed || result.givenUp)
      this.logger.log({ ...result }, 'Rank collection: SERP tasks collected');
    return result;
  }

  private async collectOne(task: OpenTask, result: CollectRunResult, seen: Set<string>) {
    if (seen.has(task.task_id)) return;
    seen.add(task.task_id);
    const answer = await this.serp.taskGet(task.task_id);
    const now = this.clock.now();
    switch (answer.kind) {
      case 'pending':
        result.pending++;
        return this.tasks.touch(task, now);
      case 'done':
      case 'no_results': {
        const check =
          answer.kind === 'done'
            ? serpCheck(answer.result, task.domain, task.match, task.check_date)
            : noResultsCheck(task.check_date);
        if (await this.tasks.storeCollected(task, check, now)) {
          result.collected++;
          metrics.providerTasks.inc({
            ...label,
            result: answer.kind === 'done' ? 'collected' : 'no_results',
          });
        }
        return;
      }
      case 'refused':
      case 'failed':
        result.failed++;
        metrics.providerTasks.inc({ ...label, result: answer.kind });
        return this.tasks.failCollected(task, answer.kind === 'refused', answer.message, now);
    }
  }
}

function postRecord(k: ClaimedKeyword, answer: SerpPosted | undefined): PostRecord {
  const base = { keywordId: k.keyword_id, accountId: k.account_id };
  if (!answer)
    return { ...base, taskId: null, failure: { refused: false, reason: 'no answer' }, cost: 0 };
  if (answer.ok) return { ...base, taskId: answer.taskId, failure: null, cost: answer.cost };
  const reason = `${answer.code ?? 'request'}: ${answer.message}`.slice(0, 500);
  return { ...base, taskId: null, failure: { refused: answer.refused, reason }, cost: answer.cost };
}
