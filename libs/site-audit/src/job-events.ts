import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { ChannelSubscription, REDIS, RedisKeys, subscribeChannel } from '@app/redis';
import { isJobId } from './ids';

/** Longest a publisher waits for Redis (the job row is committed already; waiters re-check anyway). */
const PUBLISH_TIMEOUT_MS = 1_000;

/** The pub/sub channel of terminal job transitions: `<REDIS_PREFIX>:jobs:terminal`. */
const jobEventsChannel = (keys: RedisKeys): string => keys.of('jobs', 'terminal');

/**
 * Tells every API instance that a job reached a terminal state (complete or failed).
 * The message is the job id only; receivers re-read the row from PostgreSQL, which stays
 * the one source of truth. Called after the transition's transaction has committed, so a
 * receiver's read sees the new state. Never throws: a lost message only delays waiters
 * until their deadline (or their coarse re-check while the subscription is down).
 */
@Injectable()
export class JobEventsPublisher {
  private readonly logger = new Logger(JobEventsPublisher.name);
  readonly channel: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    keys: RedisKeys,
  ) {
    this.channel = jobEventsChannel(keys);
  }

  async terminal(jobId: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), PUBLISH_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.redis.publish(this.channel, jobId), timeout]);
    } catch (err) {
      this.logger.warn(`job event not published for ${jobId}: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** How long the subscriber remembers the job ids it saw end (see `endedSince`). */
const RECENT_MS = 30_000;

/** A point in the subscription's life, taken before a waiter's first read. */
export interface JobEventsMark {
  /** Subscription generation (changes on every re-subscription). */
  epoch: number;
  live: boolean;
  at: number;
}

/** Why a watcher is called: its job's event arrived, or events may have been missed. */
type JobEventReason = 'event' | 'resync';
type JobEventListener = (reason: JobEventReason) => void;

/**
 * jobId → listeners, the in-process half of the subscriber (no Redis; unit-tested alone).
 */
export class JobListeners {
  private readonly byJob = new Map<string, Set<JobEventListener>>();

  /** Registers a listener; the returned function removes it (idempotent). */
  add(jobId: string, listener: JobEventListener): () => void {
    let set = this.byJob.get(jobId);
    if (!set) this.byJob.set(jobId, (set = new Set()));
    set.add(listener);
    return () => {
      const current = this.byJob.get(jobId);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) this.byJob.delete(jobId);
    };
  }

  /** Calls the listeners of one job (a message); unknown or malformed ids are ignored. */
  emit(jobId: string): void {
    if (!isJobId(jobId)) return;
    const set = this.byJob.get(jobId);
    if (!set) return;
    for (const listener of [...set]) listener('event');
  }

  /** Calls every listener (the subscription came back: messages may have been missed). */
  resyncAll(): void {
    for (const set of [...this.byJob.values()]) for (const l of [...set]) l('resync');
  }

  /** Jobs with at least one listener. */
  get jobs(): number {
    return this.byJob.size;
  }
}

/**
 * The API process's one subscriber connection to the job-events channel (a duplicate of
 * REDIS: a subscribed connection cannot run other commands), opened on module init and
 * closed on shutdown. `live` is true while Redis has confirmed the subscription; while it is
 * not, waiters fall back to their deadline and a coarse re-check. When the subscription
 * comes back every listener is called with 'resync' (messages may have been missed).
 */
@Injectable()
export class JobEventsSubscriber implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(JobEventsSubscriber.name);
  readonly channel: string;
  private readonly listeners = new JobListeners();
  private subscription: ChannelSubscription | null = null;
  private liveNow = false;
  private wasLive = false;
  private epoch = 0;
  /** job id → when its event arrived, oldest first, at most RECENT_MS old. */
  private readonly recent = new Map<string, number>();
  private closing = false;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    keys: RedisKeys,
  ) {
    this.channel = jobEventsChannel(keys);
  }

  get live(): boolean {
    return this.liveNow;
  }

  onModuleInit(): void {
    this.subscription = subscribeChannel(this.redis, this.channel, {
      live: () => {
        this.epoch += 1;
        this.liveNow = true;
        if (this.wasLive) {
          this.logger.log('job events subscription back; re-checking waiting requests');
          this.listeners.resyncAll();
        }
        this.wasLive = true;
      },
      down: (reason) => this.down(reason),
      message: (message) => {
        this.remember(message);
        this.listeners.emit(message);
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    const subscription = this.subscription;
    this.subscription = null;
    this.liveNow = false;
    await subscription?.close();
  }

  /** Calls `listener` when the job's terminal event arrives (or on resync); returns the unwatch. */
  watch(jobId: string, listener: JobEventListener): () => void {
    return this.listeners.add(jobId, listener);
  }

  /** The subscription's state now; pair with `missedSince` after registering a watcher. */
  mark(): JobEventsMark {
    return { epoch: this.epoch, live: this.liveNow, at: Date.now() };
  }

  /**
   * Whether the job's event may have been missed by a watcher registered after `mark`: true
   * when the subscription was not live throughout, or the job's event arrived since the mark.
   * A waiter that reads the row, then watches, needs a second read only in that case.
   */
  missedSince(jobId: string, mark: JobEventsMark): boolean {
    if (!mark.live || !this.liveNow || mark.epoch !== this.epoch) return true;
    const seen = this.recent.get(jobId);
    return seen !== undefined && seen >= mark.at;
  }

  private remember(jobId: string): void {
    const now = Date.now();
    this.recent.delete(jobId);
    this.recent.set(jobId, now);
    for (const [id, at] of this.recent) {
      if (at >= now - RECENT_MS) break;
      this.recent.delete(id);
    }
  }

  private down(reason: string): void {
    if (this.liveNow && !this.closing) {
      this.logger.warn(`job events subscription down (${reason}); waiters use their deadline`);
    }
    this.liveNow = false;
  }
}
