import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@app/core';
import { OpenTask, RankCheckInput, SerpTasksRepository, taskKey } from '@app/database';
import { SerpTaskAnswer, answerCheck } from '@app/providers';

/** Most postbacks handled in one batch (as collect's STORE_BATCH). */
const STORE_BATCH_SIZE = 100;

/** A postback's task and what the provider says about it. */
export interface PostbackItem {
  taskId: string;
  /** The keyword and day of the URL's tag (signed by its token): the task must be theirs. */
  keywordId: number;
  day: string;
  answer: SerpTaskAnswer;
}

/**
 * What became of one postback: its check `stored` (`kind` done or no_results), a
 * `duplicate` of one stored in the same batch, a provider failure `recorded` (refused or
 * failed), our store `failed`, or `not_open`: its task id is not a posted task (stored
 * already, not recorded yet, or unknown: the caller looks at the row).
 */
export type StoreOutcome =
  | { outcome: 'stored'; kind: 'done' | 'no_results' }
  | { outcome: 'duplicate' }
  | { outcome: 'recorded'; refused: boolean }
  | { outcome: 'failed' }
  | { outcome: 'not_open' };

interface Waiting extends PostbackItem {
  resolve: (outcome: StoreOutcome) => void;
}

/**
 * Handles postbacks in batches (group commit): those arriving while a batch is handled wait
 * and go together into the next one, so a burst costs one lookup statement
 * (SerpTasksRepository.openTasks) and one store transaction
 * (storeCollectedAll, collect's store path: one transaction for the batch, one per check if
 * it fails) for up to 100 postbacks, one rank-version bump per account and batch, and no
 * added delay when they come one at a time.
 */
@Injectable()
export class PostbackStore {
  private readonly logger = new Logger(PostbackStore.name);
  private queue: Waiting[] = [];
  private draining = false;

  constructor(
    private readonly tasks: SerpTasksRepository,
    private readonly clock: Clock,
  ) {}

  handle(item: PostbackItem): Promise<StoreOutcome> {
    return new Promise((resolve) => {
      this.queue.push({ ...item, resolve });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, STORE_BATCH_SIZE);
        try {
          await this.handleBatch(batch);
        } catch (err) {
          this.logger.warn({ err, postbacks: batch.length }, 'Rank postback: a batch failed');
          for (const w of batch) w.resolve({ outcome: 'failed' });
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private async handleBatch(batch: Waiting[]): Promise<void> {
    const open = await this.tasks.openTasks([...new Set(batch.map((w) => w.taskId))]);
    const now = this.clock.now();
    const checks: Array<{ task: OpenTask; check: RankCheckInput; kind: 'done' | 'no_results' }> =
      [];
    const byKey = new Map<string, Waiting[]>();
    for (const w of batch) {
      const task = open.get(w.taskId);
      if (!task || task.keyword_id !== w.keywordId || task.check_date !== w.day) {
        w.resolve({ outcome: 'not_open' });
        continue;
      }
      const key = taskKey(task);
      const same = byKey.get(key);
      if (same) {
        same.push(w); // the same task twice in a batch: stored once, the others duplicates
        continue;
      }
      byKey.set(key, [w]);
      const found = answerCheck(w.answer, task);
      if (found) {
        checks.push({ task, ...found });
        continue;
      }
      byKey.delete(key);
      const answer = w.answer;
      if (answer.kind === 'refused' || answer.kind === 'failed') {
        const refused = answer.kind === 'refused';
        await this.tasks.failCollected(task, refused, answer.message, now);
        w.resolve({ outcome: 'recorded', refused });
      } else w.resolve({ outcome: 'not_open' }); // pending: not a finished task
    }
    const result = await this.tasks.storeCollectedAll(checks, now);
    if (result.batchError)
      this.logger.warn(
        { err: result.batchError, checks: checks.length },
        'Rank postback: storing a batch failed; storing its checks one by one',
      );
    for (const c of checks) {
      const key = taskKey(c.task);
      const [first, ...again] = byKey.get(key)!;
      const err = result.failed.get(key);
      if (err) {
        this.logger.warn({ err, task: c.task.task_id }, 'Rank postback: storing a check failed');
        for (const w of [first, ...again]) w.resolve({ outcome: 'failed' });
        continue;
      }
      first.resolve(
        result.stored.has(key) ? { outcome: 'stored', kind: c.kind } : { outcome: 'duplicate' },
      );
      for (const w of again) w.resolve({ outcome: 'duplicate' });
    }
  }
}
