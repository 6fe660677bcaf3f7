import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, ApiError, AppConfig, Clock, metrics } from '@app/core';
import { SerpTasksRepository, TaskRow, parseTaskTag } from '@app/database';
import {
  SERP_TASK_POST_ENDPOINT,
  gunzipPostback,
  postbackTask,
  postbackTokenMatches,
} from '@app/providers';
import { PostbackStore } from './postback-store';

/** How long a postback waits for its task's post answer to be recorded (the worker records it right after task_post). */
const CLAIM_WAIT_MS = 3_000;

const label = { endpoint: SERP_TASK_POST_ENDPOINT };

/** The query of a postback URL (rank-collection's postbackUrl). */
export interface PostbackQuery {
  id?: unknown;
  tag?: unknown;
  token?: unknown;
}

/** What a postback did: a check stored, a known duplicate, or the task's failure recorded. */
export interface PostbackReceipt {
  task_id: string;
  outcome: 'stored' | 'duplicate' | 'failed' | 'refused';
}

/**
 * The postback receiver of rank collection (docs/rank-collection.md, "Postbacks"): checks the
 * task's token, reads the gzip body, maps it as collect maps a task_get answer and stores it
 * through the same store path. Every refusal is an ApiError: the provider then lists the
 * task in tasks_ready, which the worker's collect keeps draining, so nothing is lost.
 */
@Injectable()
export class RankPostbackService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tasks: SerpTasksRepository,
    private readonly store: PostbackStore,
    private readonly clock: Clock,
  ) {}

  /** The tag of an authentic postback URL; throws 404 (postbacks off) or 401. */
  authenticate(query: PostbackQuery): {
    tag: string;
    keywordId: number;
    day: string;
    attempt: number;
  } {
    const secret = this.config.rankCollection.postback.secret;
    if (!secret) throw ApiError.notFound('Route');
    const { tag, token } = query;
    const parsed = typeof tag === 'string' ? parseTaskTag(tag) : null;
    if (
      typeof tag !== 'string' ||
      typeof token !== 'string' ||
      !parsed ||
      !postbackTokenMatches(secret, tag, token)
    )
      throw new ApiError(
        'UNAUTHORIZED',
        'The postback token is missing or not valid for this task.',
      );
    return { tag, ...parsed };
  }

  /**
   * Stores what an authenticated postback says. `encoding`: its Content-Encoding (gzip, or
   * none when the body is raw gzip).
   */
  async receive(
    auth: { tag: string; keywordId: number; day: string; attempt: number },
    queryId: unknown,
    encoding: string | undefined,
    body: Buffer,
  ): Promise<PostbackReceipt> {
    const enc = (encoding ?? '').trim().toLowerCase();
    if (!['', 'identity', 'gzip', 'x-gzip'].includes(enc))
      throw new ApiError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Content-Encoding "${enc}" is not accepted: send gzip.`,
      );
    const text = await gunzipPostback(body);
    if (!text.ok) {
      if (text.problem === 'too_large')
        throw new ApiError(
          'PAYLOAD_TOO_LARGE',
          'The postback body is too large once decompressed.',
        );
      if (text.problem === 'not_gzip')
        throw new ApiError(
          'UNSUPPORTED_MEDIA_TYPE',
          'The postback body must be gzip-compressed JSON.',
        );
      throw new ApiError('BAD_REQUEST', 'The postback body is not valid gzip.');
    }
    const parsed = postbackTask(text.text);
    if (!parsed.ok) throw new ApiError('BAD_REQUEST', parsed.message);
    const { task: posted } = parsed;
    // The body's task must be the URL's (its tag, which the token signs, and its id).
    if (posted.tag !== auth.tag)
      throw new ApiError('BAD_REQUEST', 'The task in the body is not the task of the URL (tag).');
    if (typeof queryId === 'string' && queryId !== '$id' && queryId !== posted.id)
      throw new ApiError('BAD_REQUEST', 'The task in the body is not the task of the URL (id).');

    if (posted.answer.kind === 'pending')
      throw new ApiError('BAD_REQUEST', 'The task in the body is not complete.');
    const item = {
      taskId: posted.id,
      keywordId: auth.keywordId,
      day: auth.day,
      answer: posted.answer,
    };
    let done = await this.store.handle(item);
    if (done.outcome === 'not_open') {
      // Not a posted task: stored already, not recorded yet (waited for), or not ours to store.
      if ((await this.openRow(auth, posted.id)) === 'collected')
        return { task_id: posted.id, outcome: 'duplicate' };
      done = await this.store.handle(item);
      // Taken by another way meanwhile (collect): stored once, by it.
      if (done.outcome === 'not_open' && (await this.openRow(auth, posted.id)) === 'collected')
        return { task_id: posted.id, outcome: 'duplicate' };
    }
    switch (done.outcome) {
      case 'stored':
        metrics.providerTasks.inc({
          ...label,
          result: done.kind === 'done' ? 'collected' : 'no_results',
        });
        return { task_id: posted.id, outcome: 'stored' };
      case 'duplicate':
        return { task_id: posted.id, outcome: 'duplicate' };
      case 'recorded':
        metrics.providerTasks.inc({ ...label, result: done.refused ? 'refused' : 'failed' });
        return { task_id: posted.id, outcome: done.refused ? 'refused' : 'failed' };
      case 'failed':
      case 'not_open':
        throw new ApiError(
          'SERVICE_UNAVAILABLE',
          'The check could not be stored; it will be collected from tasks_ready.',
        );
    }
  }

  /**
   * The posted task of the tag's keyword and day with this id, or `collected` when it was
   * stored already (by a postback or by collect). A claim whose post answer is not recorded
   * yet (the postback came before the worker's record) is waited for, up to CLAIM_WAIT_MS.
   */
  private async openRow(
    auth: { keywordId: number; day: string; attempt: number },
    taskId: string,
  ): Promise<TaskRow | 'collected'> {
    // Returns a posted row, or 'collected'; throws 404 (not an open task of ours) or 503
    // (still claimed after CLAIM_WAIT_MS).
    const started = Date.now();
    for (let delay = 20; ; delay = Math.min(delay * 2, 500)) {
      const row = await this.tasks.taskOfDay(auth.keywordId, auth.day);
      if (row?.task_id === taskId && row.state === 'collected') return 'collected';
      if (row?.task_id === taskId && row.state === 'posted') return row;
      const unrecorded =
        row?.state === 'claimed' && row.task_id === null && row.attempts === auth.attempt;
      if (!unrecorded) throw ApiError.notFound('Open rank task of this postback');
      if (Date.now() - started + delay > CLAIM_WAIT_MS)
        throw new ApiError(
          'SERVICE_UNAVAILABLE',
          'The task is not recorded yet; it will be collected from tasks_ready.',
        );
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
