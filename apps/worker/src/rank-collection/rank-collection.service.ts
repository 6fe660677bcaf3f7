import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock, metrics, plainDate } from '@app/core';
import {
  MARKETS,
  SERP_TASK_POST_ENDPOINT,
  SERP_TASKS_PER_POST,
  SerpPosted,
  SerpProvider,
  SerpTaskAnswer,
  SerpTaskRequest,
  answerCheck,
  postbackUrl,
  serpTaskListPrice,
} from '@app/providers';
import {
  ClaimedKeyword,
  OpenTask,
  PostRecord,
  RankCheckInput,
  SerpTasksRepository,
  parseTaskTag,
  taskKey,
  taskTag,
} from '@app/database';

export { parseTaskTag, taskTag };

/** Most batches of 100 one post run sends (50,000 keywords). */
const MAX_BATCHES_PER_RUN = 500;
/** Most overdue tasks one collect run asks about directly. */
const OVERDUE_PER_RUN = 100;
/** A posted task missing from tasks_ready this long is asked about directly. */
const OVERDUE_AFTER_MS = 15 * 60_000;
/** A claim not posted within this is released (its worker stopped between claim and post). */
const CLAIM_EXPIRY_MS = 30 * 60_000;
const DAY_MS = 86_400_000;
/** task_get requests one collect run has in flight at once (the provider allows 30). */
export const TASK_GET_CONCURRENCY = 10;
/** Collected checks stored in one transaction. */
export const STORE_BATCH = 100;

/** `f` over `items`, at most `limit` at once; answers in the items' order. */
export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  f: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

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

  /**
   * Posts the keywords never checked (see SerpTasksRepository.claimDue), then collects: the
   * results poll's run, so a keyword added between two post intervals is posted within one poll.
   */
  async postNewThenCollect(): Promise<CollectRunResult & { newPosted: number }> {
    const posted = await this.postDue(true);
    return { ...(await this.collect()), newPosted: posted.posted };
  }

  /**
   * Claims and posts the keywords due today (with `onlyNew`, those never checked), 100 per
   * request, until none is left.
   */
  async postDue(onlyNew = false): Promise<PostRunResult> {
    const result: PostRunResult = { claimed: 0, posted: 0, failed: 0 };
    for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
      const now = this.clock.now();
      const day = plainDate(now);
      const claimed = await this.tasks.claimDue(day, now, SERP_TASKS_PER_POST, onlyNew);
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
    const tag = taskTag(k.keyword_id, day, k.attempts);
    const { baseUrl, secret } = this.config.rankCollection.postback;
    return {
      tag,
      keyword: k.keyword,
      // An unknown country is sent as location 0: the provider refuses it (405xx → status error).
      locationCode: market?.location_code ?? 0,
      languageCode: k.language,
      device: k.device === 'mobile' ? 'mobile' : 'desktop',
      depth: this.config.rankCollection.checkDepth,
      target: k.domain,
      // Postbacks on: the provider POSTs the result to the API (no task_get needed).
      ...(baseUrl && secret ? { postbackUrl: postbackUrl(baseUrl, secret, tag) } : {}),
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
    const adoptedCost = serpTaskListPrice(this.config.rankCollection.checkDepth);
    const known = await this.tasks.openTasks(listed.map((r) => r.id));
    const open: OpenTask[] = [];
    for (const ready of listed) {
      const found = known.get(ready.id);
      if (found) {
        open.push(found);
        continue;
      }
      const tag = parseTaskTag(ready.tag);
      const task = await this.tasks.openTask(
        ready.id,
        tag?.keywordId ?? null,
        tag?.day ?? null,
        now,
        {
          endpoint: SERP_TASK_POST_ENDPOINT,
          cost: adoptedCost,
        },
      );
      if (task?.adopted) {
        metrics.providerSpendUsd.inc(label, adoptedCost);
        metrics.providerTasks.inc({ ...label, result: 'adopted' });
      }
      if (task) open.push(task);
    }
    open.push(
      ...(await this.tasks.overdue(new Date(now.getTime() - OVERDUE_AFTER_MS), OVERDUE_PER_RUN)),
    );
    const todo = open.filter((t) => !seen.has(t.task_id) && seen.add(t.task_id));
    await this.collectMany(todo, result);
    if (result.collected || result.failed || result.givenUp)
      this.logger.log({ ...result }, 'Rank collection: SERP tasks collected');
    return result;
  }

  /**
   * Fetches the tasks' results (TASK_GET_CONCURRENCY task_get at once, within the provider's
   * 30 simultaneous requests) and stores them STORE_BATCH at a time in one transaction each,
   * the next batch's results being fetched while one is stored.
   */
  private async collectMany(tasks: OpenTask[], result: CollectRunResult): Promise<void> {
    const chunks: OpenTask[][] = [];
    for (let i = 0; i < tasks.length; i += STORE_BATCH)
      chunks.push(tasks.slice(i, i + STORE_BATCH));
    const fetch = (chunk: OpenTask[]) =>
      mapLimit(chunk, TASK_GET_CONCURRENCY, (t) => this.serp.taskGet(t.task_id));
    let next = chunks.length ? fetch(chunks[0]) : null;
    for (let c = 0; c < chunks.length; c++) {
      const answers = await next!;
      next = c + 1 < chunks.length ? fetch(chunks[c + 1]) : null;
      await this.storeAnswers(chunks[c], answers, result);
    }
  }

  /** One batch of fetched answers: checks stored together, the rest one task at a time. */
  private async storeAnswers(
    chunk: OpenTask[],
    answers: SerpTaskAnswer[],
    result: CollectRunResult,
  ): Promise<void> {
    const now = this.clock.now();
    const checks: Array<{ task: OpenTask; check: RankCheckInput; kind: 'done' | 'no_results' }> =
      [];
    for (let i = 0; i < chunk.length; i++) {
      const task = chunk[i];
      const answer = answers[i];
      const found = answerCheck(answer, task);
      if (found) {
        checks.push({ task, ...found });
        continue;
      }
      switch (answer.kind) {
        case 'done':
        case 'no_results':
          break; // a check (above)
        case 'pending':
          result.pending++;
          await this.tasks.touch(task, now);
          break;
        case 'refused':
        case 'failed':
          result.failed++;
          metrics.providerTasks.inc({ ...label, result: answer.kind });
          await this.tasks.failCollected(task, answer.kind === 'refused', answer.message, now);
      }
    }
    const outcome = await this.tasks.storeCollectedAll(checks, now);
    if (outcome.batchError)
      this.logger.warn(
        { err: outcome.batchError, checks: checks.length },
        'Rank collection: storing a batch failed; storing its checks one by one',
      );
    for (const c of checks) {
      const key = taskKey(c.task);
      const err = outcome.failed.get(key);
      // Left posted: collected again at a later run (tasks_ready or overdue).
      if (err)
        this.logger.warn({ err, task: c.task.task_id }, 'Rank collection: storing a check failed');
      if (outcome.stored.has(key)) {
        result.collected++;
        metrics.providerTasks.inc({
          ...label,
          result: c.kind === 'done' ? 'collected' : 'no_results',
        });
      }
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
