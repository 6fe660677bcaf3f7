import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';
import { TrackedKeywordEntity } from './rank.entity';

/**
 * Where a keyword's SERP task of one UTC day stands (docs/rank-collection.md):
 * `claimed` (a worker took the day, posting), `posted` (the provider holds the task),
 * `collected` (its check stored), `failed` (retried at the next interval while attempts < 3),
 * `refused` (a field error: the keyword's status is `error`), `given_up` (not collected
 * within 24 hours).
 */
export const SERP_TASK_STATES = [
  'claimed',
  'posted',
  'collected',
  'failed',
  'refused',
  'given_up',
] as const;
export type SerpTaskState = (typeof SERP_TASK_STATES)[number];

/** Most SERP tasks posted for one keyword and day (the first and two retries). */
export const SERP_TASK_MAX_ATTEMPTS = 3;

/**
 * One keyword's SERP task of one UTC day. The primary key (keyword_id, check_date) is the
 * claim: the insert that creates it decides which worker posts, so two workers or a restart
 * never post twice for a day. Schema: migration 1765300000000.
 */
@Entity({ name: 'rank_serp_tasks' })
@Check('rank_serp_tasks_attempts_check', 'attempts BETWEEN 1 AND 3')
@Check(
  'rank_serp_tasks_state_check',
  `state IN ('claimed', 'posted', 'collected', 'failed', 'refused', 'given_up')`,
)
// The collector's look-ups: open tasks by state and age; a ready task by its id.
@Index('rank_serp_tasks_state_idx', ['state', 'claimedAt'])
@Index('rank_serp_tasks_task_id_key', ['taskId'], { unique: true })
export class RankSerpTaskEntity {
  @ForeignKey(() => TrackedKeywordEntity, {
    name: 'rank_serp_tasks_keyword_id_fkey',
    onDelete: 'CASCADE',
  })
  @PrimaryColumn({ name: 'keyword_id', type: 'integer' })
  keywordId: number;
  /** The UTC day the task is for (the day it was claimed). */
  @PrimaryColumn({ name: 'check_date', type: 'date' }) checkDate: string;
  @ForeignKey(() => AccountEntity, { name: 'rank_serp_tasks_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;
  @Column({ type: 'text' }) state: SerpTaskState;
  /** Tasks posted for this keyword and day (1-3). */
  @Column({ type: 'integer' }) attempts: number;
  /** The provider's task id; null until posted. */
  @Column({ name: 'task_id', type: 'text', nullable: true }) taskId: string | null;
  @Column({ name: 'claimed_at', type: 'timestamptz' }) claimedAt: Date;
  @Column({ name: 'posted_at', type: 'timestamptz', nullable: true }) postedAt: Date | null;
  /** USD the provider charged for the tasks of this day, all attempts (numeric: a string). */
  @Column({ type: 'numeric', precision: 12, scale: 6, default: 0 }) cost: string;
  /** The last provider status code and message of a failed or refused task. */
  @Column({ name: 'last_error', type: 'text', nullable: true }) lastError: string | null;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/**
 * What an account cost at the provider: tasks and USD per UTC day and provider endpoint,
 * upserted by one atomic statement per posted batch (GET /admin/v1/accounts/{id}/provider-spend).
 * Schema: migration 1765300000000.
 */
@Entity({ name: 'provider_spend' })
export class ProviderSpendEntity {
  @ForeignKey(() => AccountEntity, { name: 'provider_spend_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;
  @PrimaryColumn({ type: 'date' }) day: string;
  /** The provider endpoint, e.g. `serp/google/organic/task_post`. */
  @PrimaryColumn({ type: 'text' }) endpoint: string;
  @Column({ type: 'integer', default: 0 }) tasks: number;
  /** numeric(14,6): read as a string by the driver. */
  @Column({ type: 'numeric', precision: 14, scale: 6, default: 0 }) usd: string;
}
