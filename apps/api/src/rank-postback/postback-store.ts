import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@app/core';
import { OpenTask, RankCheckInput, SerpTasksRepository, taskKey } from '@app/database';

/** Most checks stored in one transaction (as collect's STORE_BATCH). */
const STORE_BATCH_SIZE = 100;

/** What became of one check handed to the store. */
export type StoreOutcome = 'stored' | 'duplicate' | 'failed';

interface Waiting {
  task: OpenTask;
  check: RankCheckInput;
  resolve: (outcome: StoreOutcome) => void;
}

/**
 * Stores the checks of postbacks through collect's store path
 * (SerpTasksRepository.storeCollectedAll: one transaction for the batch, one per check if it
 * fails). Postbacks arriving while a batch is being stored wait and go together into the next
 * one (group commit): one transaction and one rank-version bump per account for many
 * postbacks under load, no added delay when they come one at a time.
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

  store(task: OpenTask, check: RankCheckInput): Promise<StoreOutcome> {
    return new Promise((resolve) => {
      this.queue.push({ task, check, resolve });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length) await this.storeBatch(this.queue.splice(0, STORE_BATCH_SIZE));
    } finally {
      this.draining = false;
    }
  }

  private async storeBatch(batch: Waiting[]): Promise<void> {
    // The same task twice in a batch (a postback sent again at once): stored once, the
    // others are its duplicates.
    const first = new Map<string, Waiting>();
    const again: Waiting[] = [];
    for (const w of batch) {
      const key = taskKey(w.task);
      if (first.has(key)) again.push(w);
      else first.set(key, w);
    }
    const items = [...first.values()];
    let outcome: Awaited<ReturnType<SerpTasksRepository['storeCollectedAll']>> | null = null;
    try {
      outcome = await this.tasks.storeCollectedAll(items, this.clock.now());
    } catch (err) {
      this.logger.warn({ err, checks: items.length }, 'Rank postback: storing checks failed');
    }
    if (outcome?.batchError)
      this.logger.warn(
        { err: outcome.batchError, checks: items.length },
        'Rank postback: storing a batch failed; storing its checks one by one',
      );
    const results = new Map<string, StoreOutcome>();
    for (const w of items) {
      const key = taskKey(w.task);
      const err = outcome ? outcome.failed.get(key) : true;
      if (err && outcome)
        this.logger.warn({ err, task: w.task.task_id }, 'Rank postback: storing a check failed');
      const result: StoreOutcome = err
        ? 'failed'
        : outcome!.stored.has(key)
          ? 'stored'
          : 'duplicate';
      results.set(key, result);
      w.resolve(result);
    }
    for (const w of again) {
      const result = results.get(taskKey(w.task));
      w.resolve(result === 'failed' ? 'failed' : 'duplicate');
    }
  }
}
