import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

export type IdempotencyState = 'running' | 'complete';

/**
 * One `Idempotency-Key` of an account (POST under /api/v1, docs/api.md "Idempotency-Key"):
 * claimed by the first request (`running`, with a lease), then `complete` with the answer
 * that request got (status, a few headers, the body's bytes), replayed to every repeat within
 * 24 hours. A 5xx deletes the claim. Kept in PostgreSQL, never Redis. Rows past `expires_at`
 * are purged by the worker. Schema: migration 1765230000000.
 */
@Entity({ name: 'idempotency_keys' })
@Check('idempotency_keys_state_check', `state IN ('running', 'complete')`)
@Check('idempotency_keys_key_check', 'length(key) BETWEEN 1 AND 255')
@Check(
  'idempotency_keys_answer_check',
  `(state = 'running' AND status IS NULL AND body IS NULL) OR (state = 'complete' AND status IS NOT NULL AND body IS NOT NULL)`,
)
// The worker's purge: expired rows, oldest first.
@Index('idempotency_keys_expires_idx', ['expiresAt'])
export class IdempotencyKeyEntity {
  @ForeignKey(() => AccountEntity, {
    name: 'idempotency_keys_account_id_fkey',
    onDelete: 'CASCADE',
  })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  @PrimaryColumn({ type: 'text' })
  key: string;

  /** Method and route template, e.g. `POST /api/v1/site-audit`. */
  @Column({ type: 'text' })
  route: string;

  /** sha256 (hex) of the canonical JSON of the path parameters, query and parsed body. */
  @Column({ name: 'request_hash', type: 'text' })
  requestHash: string;

  @Column({ type: 'text' })
  state: IdempotencyState;

  /** The claiming request's token: only it may complete or release the claim. */
  @Column({ type: 'uuid' })
  claim: string;

  /** While running: after this, the claim counts as abandoned (a killed process). */
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  @Column({ type: 'integer', nullable: true })
  status: number | null;

  /** The answer's replayed headers (Content-Type, Location). */
  @Column({ type: 'jsonb', nullable: true })
  headers: Record<string, string> | null;

  @Column({ type: 'bytea', nullable: true })
  body: Buffer | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
