import { Injectable } from '@nestjs/common';
import { SERP_TASK_MAX_ATTEMPTS } from './entities';
import { RankCheckInput, RankChecksRepository } from './rank-checks.repository';
import { Sql } from './sql';

/** A keyword claimed for a day, with what its SERP task needs. */
export interface ClaimedKeyword {
  keyword_id: number;
  account_id: number;
  attempts: number;
  keyword: string;
  country: string;
  language: string;
  device: string;
  domain: string;
}

/** A posted task and what collecting it needs. */
export interface OpenTask {
  keyword_id: number;
  /** YYYY-MM-DD */
  check_date: string;
  task_id: string;
  domain: string;
  /** The project's `match`: which result hosts count as the domain (serpCheck). */
  match: 'domain' | 'exact_host';
  /** Set when the task was adopted from tasks_ready (its post answer was lost). */
  adopted?: true;
}

/** A task's tag: `rk:<keyword id>:<YYYY-MM-DD>:<attempt>` (echoed by tasks_ready and postbacks). */
export const taskTag = (keywordId: number, day: string, attempt: number) =>
  `rk:${keywordId}:${day}:${attempt}`;

export function parseTaskTag(
  tag: string | null,
): { keywordId: number; day: string; attempt: number } | null {
  const m = /^rk:(\d+):(\d{4}-\d{2}-\d{2}):(\d+)$/.exec(tag ?? '');
  return m ? { keywordId: Number(m[1]), day: m[2], attempt: Number(m[3]) } : null;
}

/** A task's identity in a batch: `<keyword id>:<YYYY-MM-DD>`. */
export const taskKey = (t: { keyword_id: number; check_date: string }) =>
  `${t.keyword_id}:${t.check_date}`;

/** One posted task's answer to record: its id, or why it was not created. */
export interface PostRecord {
  keywordId: number;
  accountId: number;
  taskId: string | null;
  /** null when posted; else failed (retried) or refused (the keyword gets status `error`). */
  failure: { refused: boolean; reason: string } | null;
  cost: number;
}

/** What storeCollectedAll did with a list of checks. */
export interface StoredChecks {
  /** The tasks stored now, as `taskKey`s (a task already collected is in neither set). */
  stored: Set<string>;
  /** The tasks whose store failed (left posted), with the error. */
  failed: Map<string, unknown>;
  /** Why the batch's transaction failed (its checks were then stored one by one); null: it did not. */
  batchError: unknown;
}

/**
 * A posted-or-claimed task as a postback finds it (docs/rank-collection.md, "Postbacks"): the
 * row of the tag's keyword and day, whatever its state.
 */
export interface TaskRow extends Omit<OpenTask, 'task_id'> {
  state: string;
  attempts: number;
  /** null while claimed (the task_post answer not recorded yet). */
  task_id: string | null;
}

/**
 * Statements of rank collection (docs/rank-collection.md): claims, tasks, the spend ledger.
 * Shared by the worker (post, collect) and the API's postback receiver (store).
 */
@Injectable()
export class SerpTasksRepository {
  constructor(
    private readonly sql: Sql,
    private readonly checks: RankChecksRepository,
  ) {}

  /**
   * Claims up to `limit` keywords due on `day`: active or pending keywords of tracking
   * projects with no task of that day yet, or whose task of that day failed with attempts
   * left. One statement: the insert on the primary key (keyword_id, check_date) is the claim,
   * so a keyword another worker claimed (or a restart already posted) is never returned.
   * With `onlyNew`, only keywords never checked and never posted (status `pending`, no task
   * on any day): the results poll posts those, so a new keyword is not left for the next
   * interval, and a failed first attempt waits for it like any other retry.
   */
  claimDue(day: string, now: Date, limit: number, onlyNew = false): Promise<ClaimedKeyword[]> {
    const which = onlyNew
      ? `k.status = 'pending' AND NOT EXISTS (SELECT 1 FROM rank_serp_tasks n WHERE n.keyword_id = k.id)`
      : `k.status IN ('active', 'pending')`;
    return this.sql.rows<ClaimedKeyword>(
      `WITH due AS (
         SELECT k.id, k.account_id FROM tracked_keywords k
         JOIN rank_projects p ON p.id = k.project_id AND p.tracking
         WHERE ${which}
           AND NOT EXISTS (SELECT 1 FROM rank_serp_tasks t WHERE t.keyword_id = k.id
                             AND t.check_date = $1::date AND NOT (t.state = 'failed' AND t.attempts < $4))
         ORDER BY k.id LIMIT $3
       ), claimed AS (
         INSERT INTO rank_serp_tasks AS t (keyword_id, check_date, account_id, state, attempts, claimed_at, updated_at)
         SELECT d.id, $1::date, d.account_id, 'claimed', 1, $2, $2 FROM due d
         ON CONFLICT (keyword_id, check_date) DO UPDATE SET state = 'claimed', attempts = t.attempts + 1,
           task_id = NULL, claimed_at = EXCLUDED.claimed_at, updated_at = EXCLUDED.updated_at
           WHERE t.state = 'failed' AND t.attempts < $4
         RETURNING t.keyword_id, t.account_id, t.attempts
       )
       SELECT c.keyword_id, c.account_id, c.attempts, k.keyword, k.country, k.language, k.device, p.domain
       FROM claimed c JOIN tracked_keywords k ON k.id = c.keyword_id
       JOIN rank_projects p ON p.id = k.project_id
       ORDER BY c.keyword_id`,
      [day, now, limit, SERP_TASK_MAX_ATTEMPTS],
    );
  }

  /**
   * Records a posted batch in one transaction: each claim becomes posted (with its task id),
   * failed or refused (its keyword then has status `error`), and what the provider charged
   * goes to the spend ledger per account, day and endpoint (one atomic upsert).
   */
  recordPosted(day: string, endpoint: string, records: PostRecord[], now: Date): Promise<void> {
    return this.sql.transaction(async (tx) => {
      await tx.run(
        `UPDATE rank_serp_tasks t SET
           state = CASE WHEN r.task_id IS NOT NULL THEN 'posted' WHEN r.refused THEN 'refused' ELSE 'failed' END,
           task_id = r.task_id, posted_at = CASE WHEN r.task_id IS NOT NULL THEN $2::timestamptz END,
           cost = t.cost + r.cost, last_error = r.reason, updated_at = $2
         FROM unnest($3::int[], $4::text[], $5::bool[], $6::text[], $7::numeric[])
           AS r(keyword_id, task_id, refused, reason, cost)
         WHERE t.keyword_id = r.keyword_id AND t.check_date = $1::date AND t.state = 'claimed'`,
        [
          day,
          now,
          records.map((r) => r.keywordId),
          records.map((r) => r.taskId),
          records.map((r) => r.failure?.refused ?? false),
          records.map((r) => r.failure?.reason ?? null),
          records.map((r) => r.cost),
        ],
      );
      const refused = records.filter((r) => r.failure?.refused).map((r) => r.keywordId);
      if (refused.length) await this.markKeywordsRefused(tx, refused, now);
      await this.addSpend(
        tx,
        day,
        endpoint,
        records.filter((r) => r.taskId !== null || r.cost > 0),
      );
    });
  }

  private async addSpend(
    tx: { run: Sql['run'] },
    day: string,
    endpoint: string,
    charged: PostRecord[],
  ): Promise<void> {
    if (!charged.length) return;
    await tx.run(
      `INSERT INTO provider_spend AS s (account_id, day, endpoint, tasks, usd)
       SELECT r.account_id, $1::date, $2, count(*), sum(r.cost)
       FROM unnest($3::int[], $4::numeric[]) AS r(account_id, cost) GROUP BY r.account_id
       ON CONFLICT (account_id, day, endpoint) DO UPDATE SET
         tasks = s.tasks + EXCLUDED.tasks, usd = s.usd + EXCLUDED.usd`,
      [day, endpoint, charged.map((r) => r.accountId), charged.map((r) => r.cost)],
    );
  }

  private async markKeywordsRefused(
    tx: { run: Sql['run'] },
    keywordIds: number[],
    now: Date,
  ): Promise<void> {
    await tx.run(
      `UPDATE tracked_keywords SET status = 'error', updated_at = $2
       WHERE id = ANY($1::int[]) AND status <> 'error'`,
      [keywordIds, now],
    );
  }

  /**
   * The open task of a provider task id, or of its tag's keyword and day when posted
   * unrecorded (then adopted, at `adopted.cost` on the spend ledger).
   */
  async openTask(
    taskId: string,
    keywordId: number | null,
    day: string | null,
    now: Date,
    adopted: { endpoint: string; cost: number },
  ): Promise<OpenTask | null> {
    const byId = await this.sql.one<OpenTask>(
      `SELECT t.keyword_id, to_char(t.check_date, 'YYYY-MM-DD') AS check_date, t.task_id, p.domain, p.match
       FROM rank_serp_tasks t JOIN tracked_keywords k ON k.id = t.keyword_id
       JOIN rank_projects p ON p.id = k.project_id
       WHERE t.task_id = $1 AND t.state = 'posted'`,
      [taskId],
    );
    if (byId || keywordId === null || day === null) return byId ?? null;
    return this.adopt(taskId, keywordId, day, now, adopted);
  }

  /**
   * A task the provider holds whose post answer was never recorded (the worker stopped
   * between posting and recording): its claim takes the task id, so it is collected, not
   * posted again; its charge (the list price: the real one was in the lost answer) goes to
   * the task row and the spend ledger in the same transaction.
   */
  private adopt(
    taskId: string,
    keywordId: number,
    day: string,
    now: Date,
    adopted: { endpoint: string; cost: number },
  ): Promise<OpenTask | null> {
    return this.sql.transaction(async (tx) => {
      const row = await tx.one<OpenTask & { account_id: number }>(
        `UPDATE rank_serp_tasks t SET state = 'posted', task_id = $1, posted_at = $4, updated_at = $4,
           cost = t.cost + $5
         FROM tracked_keywords k JOIN rank_projects p ON p.id = k.project_id
         WHERE k.id = t.keyword_id AND t.keyword_id = $2 AND t.check_date = $3::date
           AND t.state IN ('claimed', 'failed') AND t.task_id IS NULL
         RETURNING t.keyword_id, to_char(t.check_date, 'YYYY-MM-DD') AS check_date, t.task_id,
           p.domain, p.match, t.account_id`,
        [taskId, keywordId, day, now, adopted.cost],
      );
      if (!row) return null;
      const { account_id: accountId, ...task } = row;
      const charged = { keywordId, accountId, taskId, failure: null, cost: adopted.cost };
      await this.addSpend(tx, day, adopted.endpoint, [charged]);
      return { ...task, adopted: true as const };
    });
  }

  /** Posted tasks not heard of since `before` (missed by tasks_ready), oldest first. */
  overdue(before: Date, limit: number): Promise<OpenTask[]> {
    return this.sql.rows<OpenTask>(
      `SELECT t.keyword_id, to_char(t.check_date, 'YYYY-MM-DD') AS check_date, t.task_id, p.domain, p.match
       FROM rank_serp_tasks t JOIN tracked_keywords k ON k.id = t.keyword_id
       JOIN rank_projects p ON p.id = k.project_id
       WHERE t.state = 'posted' AND t.updated_at < $1
       ORDER BY t.updated_at LIMIT $2`,
      [before, limit],
    );
  }

  /** A task still in the provider's queue: looked at again only after the overdue delay. */
  async touch(task: OpenTask, now: Date): Promise<void> {
    await this.sql.run(
      `UPDATE rank_serp_tasks SET updated_at = $3 WHERE keyword_id = $1 AND check_date = $2::date`,
      [task.keyword_id, task.check_date, now],
    );
  }

  /**
   * Stores a collected check through the rank write path and closes its task, in one
   * transaction: the task row is taken first, so a task two workers collect at once is
   * stored once. A pending keyword becomes active. false: already collected.
   */
  storeCollected(task: OpenTask, check: RankCheckInput, now: Date): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const closed = await tx.rows(
        `UPDATE rank_serp_tasks SET state = 'collected', updated_at = $3
         WHERE keyword_id = $1 AND check_date = $2::date AND state = 'posted' RETURNING keyword_id`,
        [task.keyword_id, task.check_date, now],
      );
      if (!closed.length) return false;
      await this.checks.storeChecksIn(tx, task.keyword_id, [check], now);
      await tx.run(
        `UPDATE tracked_keywords SET status = 'active', updated_at = $2 WHERE id = $1 AND status = 'pending'`,
        [task.keyword_id, now],
      );
      return true;
    });
  }

  /**
   * The open (posted) tasks of many provider task ids in one statement; ids not found are
   * absent from the map (unknown, already collected, or posted unrecorded: see openTask).
   */
  async openTasks(taskIds: string[]): Promise<Map<string, OpenTask>> {
    if (!taskIds.length) return new Map();
    const rows = await this.sql.rows<OpenTask>(
      `SELECT t.keyword_id, to_char(t.check_date, 'YYYY-MM-DD') AS check_date, t.task_id, p.domain, p.match
       FROM rank_serp_tasks t JOIN tracked_keywords k ON k.id = t.keyword_id
       JOIN rank_projects p ON p.id = k.project_id
       WHERE t.task_id = ANY($1::text[]) AND t.state = 'posted'`,
      [taskIds],
    );
    return new Map(rows.map((r) => [r.task_id, r]));
  }

  /**
   * Stores many collected checks in one transaction (one commit, one rank-version bump per
   * account instead of one per check): the tasks still posted are taken first in one
   * statement (a task another worker closed is skipped, never stored twice), each taken
   * task's check goes through the rank write path, and pending keywords become active.
   * Answers the tasks stored, as `taskKey`s. Throws (storing nothing) when any statement fails; the
   * caller then stores the batch one task at a time (storeCollected).
   */
  storeCollectedBatch(
    items: Array<{ task: OpenTask; check: RankCheckInput }>,
    now: Date,
  ): Promise<Set<string>> {
    if (!items.length) return Promise.resolve(new Set<string>());
    return this.sql.transaction(async (tx) => {
      const closed = await tx.rows<{ keyword_id: number; check_date: string }>(
        `UPDATE rank_serp_tasks t SET state = 'collected', updated_at = $3
         FROM unnest($1::int[], $2::date[]) AS r(keyword_id, check_date)
         WHERE t.keyword_id = r.keyword_id AND t.check_date = r.check_date AND t.state = 'posted'
         RETURNING t.keyword_id, to_char(t.check_date, 'YYYY-MM-DD') AS check_date`,
        [items.map((i) => i.task.keyword_id), items.map((i) => i.task.check_date), now],
      );
      const stored = new Set(closed.map((c) => taskKey(c)));
      // In keyword order: two workers' batches lock keyword rows in the same order.
      const ordered = items
        .filter((i) => stored.has(taskKey(i.task)))
        .sort((a, b) => a.task.keyword_id - b.task.keyword_id);
      for (const i of ordered)
        await this.checks.storeChecksIn(tx, i.task.keyword_id, [i.check], now);
      if (ordered.length)
        await tx.run(
          `UPDATE tracked_keywords SET status = 'active', updated_at = $2
           WHERE id = ANY($1::int[]) AND status = 'pending'`,
          [ordered.map((i) => i.task.keyword_id), now],
        );
      return stored;
    });
  }

  /**
   * Stores collected checks as collect does: all in one transaction (storeCollectedBatch);
   * when that fails, one transaction per check (storeCollected), so one bad check does not
   * hold back the others. A task already collected is skipped (stored once, however it
   * arrives); a check whose store fails stays posted (collected again later).
   */
  async storeCollectedAll(
    items: Array<{ task: OpenTask; check: RankCheckInput }>,
    now: Date,
  ): Promise<StoredChecks> {
    const out: StoredChecks = { stored: new Set(), failed: new Map(), batchError: null };
    try {
      out.stored = await this.storeCollectedBatch(items, now);
      return out;
    } catch (err) {
      out.batchError = err;
    }
    for (const i of items) {
      try {
        if (await this.storeCollected(i.task, i.check, now)) out.stored.add(taskKey(i.task));
      } catch (err) {
        out.failed.set(taskKey(i.task), err);
      }
    }
    return out;
  }

  /** The task row of a keyword and day (a tag's), with its project's domain and match; any state. */
  taskOfDay(keywordId: number, day: string): Promise<TaskRow | undefined> {
    return this.sql.one<TaskRow>(
      `SELECT t.keyword_id, to_char(t.check_date, 'YYYY-MM-DD') AS check_date, t.task_id, t.state,
         t.attempts, p.domain, p.match
       FROM rank_serp_tasks t JOIN tracked_keywords k ON k.id = t.keyword_id
       JOIN rank_projects p ON p.id = k.project_id
       WHERE t.keyword_id = $1 AND t.check_date = $2::date`,
      [keywordId, day],
    );
  }

  /** A posted task that failed at the provider: retried at the next interval (attempts left) or refused. */
  failCollected(task: OpenTask, refused: boolean, reason: string, now: Date): Promise<void> {
    return this.sql.transaction(async (tx) => {
      const closed = await tx.rows(
        `UPDATE rank_serp_tasks SET state = $3, last_error = $4, updated_at = $5
         WHERE keyword_id = $1 AND check_date = $2::date AND state = 'posted' RETURNING keyword_id`,
        [
          task.keyword_id,
          task.check_date,
          refused ? 'refused' : 'failed',
          reason.slice(0, 500),
          now,
        ],
      );
      if (closed.length && refused) await this.markKeywordsRefused(tx, [task.keyword_id], now);
    });
  }

  /**
   * Tasks claimed or posted before `before` (24 hours ago) and never collected are given up
   * (their day is over: the keyword is due again for today). Claims unposted since
   * `claimExpiry` are released as failed, due again while attempts are left.
   */
  async expire(
    before: Date,
    claimExpiry: Date,
    now: Date,
  ): Promise<{ givenUp: number; released: number }> {
    const givenUp = await this.sql.rows(
      `UPDATE rank_serp_tasks SET state = 'given_up', last_error = 'not collected within 24 hours', updated_at = $2
       WHERE state IN ('claimed', 'posted') AND claimed_at < $1 RETURNING keyword_id`,
      [before, now],
    );
    const released = await this.sql.rows(
      `UPDATE rank_serp_tasks SET state = 'failed', last_error = 'claim not posted', updated_at = $2
       WHERE state = 'claimed' AND task_id IS NULL AND claimed_at < $1 RETURNING keyword_id`,
      [claimExpiry, now],
    );
    return { givenUp: givenUp.length, released: released.length };
  }
}
