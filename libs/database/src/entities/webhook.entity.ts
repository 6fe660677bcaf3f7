import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { AccountEntity } from './account.entity';
import { JobEntity } from './job.entity';

/** A stored secret: as it is (`whsec_…`) or sealed (`enc:v1:…`). */
export const WEBHOOK_SECRET_CHECK = `secret ~ '^(whsec_[A-Za-z0-9+/=]{40,100}|enc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]{40,200})$'`;

/**
 * An account's webhook signing secret (`whsec_` + base64 of 32 random bytes, Standard
 * Webhooks). The worker must read it back to sign every delivery, so it is encrypted, not
 * hashed: sealed with AES-256-GCM under SECRETS_ENCRYPTION_KEY as `enc:v1:<key id>:<iv>:<tag>:
 * <ciphertext>` (the key id beside the value), or as it is without a key and in rows written
 * before (docs/webhooks.md, "Secrets at rest"). After a rotation the previous secret still
 * signs (a second signature) until `previous_secret_valid_until`. Schema: migrations
 * 1764400000000 (webhooks) and 1764900000000 (secrets at rest).
 */
@Entity({ name: 'webhook_secrets' })
@Check('webhook_secrets_secret_check', WEBHOOK_SECRET_CHECK)
@Check(
  'webhook_secrets_previous_check',
  '(previous_secret IS NULL) = (previous_secret_valid_until IS NULL)',
)
export class WebhookSecretEntity {
  @ForeignKey(() => AccountEntity, {
    name: 'webhook_secrets_account_id_fkey',
    onDelete: 'CASCADE',
  })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ type: 'text' })
  secret: string;

  @Column({ name: 'previous_secret', type: 'text', nullable: true })
  previousSecret: string | null;

  @Column({ name: 'previous_secret_valid_until', type: 'timestamptz', nullable: true })
  previousSecretValidUntil: Date | null;

  /** When the current secret was made (first use or the last rotation). */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

export type WebhookEvent = 'site_audit.completed' | 'site_audit.failed' | 'usage.threshold_reached';
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * One webhook delivery (the outbox row): written in the transaction that ends its job (or, for
 * a usage alert, by the statement that records the threshold as fired), then sent by the
 * worker until a 2xx (delivered), a 410 or the end of the retry schedule (failed). `id` is
 * the `webhook-id` header of every attempt. Schema: migrations 1764400000000 and
 * 1765000000000 (usage alerts: no job, `payload` holds the event's data).
 */
@Entity({ name: 'webhook_deliveries' })
@Unique('webhook_deliveries_job_id_key', ['jobId'])
@Check('webhook_deliveries_id_check', `id ~ '^msg_[0-9A-Za-z]{22}$'`)
@Check(
  'webhook_deliveries_event_check',
  `event IN ('site_audit.completed', 'site_audit.failed', 'usage.threshold_reached')`,
)
@Check(
  'webhook_deliveries_subject_check',
  `CASE WHEN event = 'usage.threshold_reached' THEN job_id IS NULL AND payload IS NOT NULL ELSE job_id IS NOT NULL END`,
)
@Check('webhook_deliveries_status_check', `status IN ('pending', 'delivered', 'failed')`)
@Check('webhook_deliveries_attempts_check', 'attempts >= 0')
@Check(
  'webhook_deliveries_delivered_at_check',
  `(status = 'delivered') = (delivered_at IS NOT NULL)`,
)
// An account's deliveries, newest first: (account_id, created_at DESC); TypeORM cannot express DESC.
@Index('webhook_deliveries_account_idx', { synchronize: false })
@Index('webhook_deliveries_pending_idx', ['nextAttemptAt'], { where: `status = 'pending'` })
export class WebhookDeliveryEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @ForeignKey(() => AccountEntity, {
    name: 'webhook_deliveries_account_id_fkey',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @ForeignKey(() => JobEntity, { name: 'webhook_deliveries_job_id_fkey', onDelete: 'CASCADE' })
  /** The job whose end this delivers; null for a usage alert. */
  @Column({ name: 'job_id', type: 'text', nullable: true })
  jobId: string | null;

  @Column({ type: 'text' })
  event: WebhookEvent;

  @Column({ type: 'text' })
  url: string;

  /** The event's `data` when it is fixed at creation (usage alerts); null for job events. */
  @Column({ type: 'jsonb', nullable: true })
  payload: Record<string, unknown> | null;

  @Column({ type: 'text' })
  status: WebhookDeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode: number | null;

  /** Why the last attempt failed without a status code (timeout, refused address, ...). */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null;

  /** When the next attempt is due (pending only; the sweep re-enqueues overdue ones). */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
