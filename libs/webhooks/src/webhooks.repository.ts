import { Injectable } from '@nestjs/common';
import {
  Sql,
  SqlScope,
  WebhookDeliveryEntity,
  WebhookDeliveryStatus,
  WebhookEvent,
  WebhookSecretEntity,
} from '@app/database';

/** The transaction of a job's terminal transition, as the outbox insert takes it. */
export type OutboxTx = SqlScope;

/** What one attempt leaves on the delivery row. */
interface AttemptRecord {
  status: WebhookDeliveryStatus;
  statusCode: number | null;
  error: string | null;
  at: Date;
  nextAttemptAt: Date | null;
}

/**
 * The `webhook_deliveries` outbox and the `webhook_secrets` of accounts. The delivery insert
 * runs on the transaction that ends the job; every attempt is one conditional UPDATE of a
 * pending row, so a finished delivery never changes again.
 */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Inserts the delivery of a job that has a webhook_url (one per job: a repeat inserts
   * nothing). Answers the new delivery id, or null when there is nothing to deliver.
   */
  async insertForJob(
    tx: SqlScope,
    id: string,
    jobId: string,
    event: WebhookEvent,
    now: Date,
  ): Promise<string | null> {
    const row = await tx.one<{ id: string }>(
      `INSERT INTO webhook_deliveries (id, account_id, job_id, event, url, status, attempts, next_attempt_at, created_at)
       SELECT $1, account_id, id, $3, webhook_url, 'pending', 0, $4, $4
       FROM jobs WHERE id = $2 AND webhook_url IS NOT NULL
       ON CONFLICT (job_id) DO NOTHING
       RETURNING id`,
      [id, jobId, event, now],
    );
    return row?.id ?? null;
  }

  find(id: string): Promise<WebhookDeliveryEntity | null> {
    return this.sql.repository(WebhookDeliveryEntity).findOneBy({ id });
  }

  /** Records one attempt of a pending delivery; false when it was no longer pending. */
  async recordAttempt(id: string, a: AttemptRecord): Promise<boolean> {
    const rows = await this.sql.rows(
      `UPDATE webhook_deliveries
         SET attempts = attempts + 1, status = $2, last_status_code = $3, last_error = $4,
             last_attempt_at = $5, next_attempt_at = $6,
             delivered_at = CASE WHEN $2 = 'delivered' THEN $5::timestamptz END
       WHERE id = $1 AND status = 'pending' RETURNING id`,
      [id, a.status, a.statusCode, a.error, a.at, a.nextAttemptAt],
    );
    return rows.length > 0;
  }

  /** Pending deliveries whose next attempt was due before `before`, oldest first. */
  overdue(before: Date, limit: number): Promise<Array<{ id: string }>> {
    return this.sql.rows(
      `SELECT id FROM webhook_deliveries
       WHERE status = 'pending' AND next_attempt_at < $1
       ORDER BY next_attempt_at LIMIT $2`,
      [before, limit],
    );
  }

  /** The account's deliveries, newest first. */
  listForAccount(
    accountId: number,
    limit: number,
    offset: number,
  ): Promise<WebhookDeliveryEntity[]> {
    return this.sql.repository(WebhookDeliveryEntity).find({
      where: { accountId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
      skip: offset,
    });
  }

  findSecret(accountId: number): Promise<WebhookSecretEntity | null> {
    return this.sql.repository(WebhookSecretEntity).findOneBy({ accountId });
  }

  /** The distinct key ids the stored secrets are sealed with (`enc:v1:<kid>:...`). */
  async secretKeyIds(): Promise<string[]> {
    const rows = await this.sql.rows<{ kid: string }>(
      `SELECT DISTINCT split_part(v, ':', 3) AS kid
       FROM webhook_secrets, LATERAL (VALUES (secret), (previous_secret)) AS s (v)
       WHERE v LIKE 'enc:v1:%'`,
    );
    return rows.map((r) => r.kid);
  }

  /** Up to `limit` rows (by account id, after `afterAccountId`) with a value not sealed by `kid`. */
  secretsNotUnderKey(
    kid: string,
    afterAccountId: number,
    limit: number,
  ): Promise<WebhookSecretEntity[]> {
    const sealed = `enc:v1:${kid}:%`;
    return this.sql.rows<WebhookSecretEntity>(
      `SELECT account_id AS "accountId", secret, previous_secret AS "previousSecret",
              previous_secret_valid_until AS "previousSecretValidUntil", created_at AS "createdAt"
       FROM webhook_secrets
       WHERE account_id > $2
         AND (secret NOT LIKE $1 OR (previous_secret IS NOT NULL AND previous_secret NOT LIKE $1))
       ORDER BY account_id LIMIT $3`,
      [sealed, afterAccountId, limit],
    );
  }

  /**
   * Replaces a row's stored values (re-encryption) only while they are still the ones read:
   * a rotation in between wins, and this answers false.
   */
  async replaceSecretValues(
    read: WebhookSecretEntity,
    secret: string,
    previousSecret: string | null,
  ): Promise<boolean> {
    const row = await this.sql.one<{ account_id: number }>(
      `UPDATE webhook_secrets SET secret = $4, previous_secret = $5
       WHERE account_id = $1 AND secret = $2 AND previous_secret IS NOT DISTINCT FROM $3
       RETURNING account_id`,
      [read.accountId, read.secret, read.previousSecret, secret, previousSecret],
    );
    return row !== undefined;
  }

  /** Creates the account's secret unless it has one; answers the row either way. */
  async ensureSecret(accountId: number, secret: string, now: Date): Promise<WebhookSecretEntity> {
    await this.sql.run(
      `INSERT INTO webhook_secrets (account_id, secret, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO NOTHING`,
      [accountId, secret, now],
    );
    return (await this.findSecret(accountId))!;
  }

  /**
   * Replaces the account's secret (creating it if there was none); the old one becomes
   * `previous_secret`, valid until `previousValidUntil`. One statement.
   */
  async rotateSecret(
    accountId: number,
    secret: string,
    now: Date,
    previousValidUntil: Date,
  ): Promise<WebhookSecretEntity> {
    await this.sql.run(
      `INSERT INTO webhook_secrets (account_id, secret, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO UPDATE
         SET previous_secret = webhook_secrets.secret, previous_secret_valid_until = $4,
             secret = EXCLUDED.secret, created_at = EXCLUDED.created_at`,
      [accountId, secret, now, previousValidUntil],
    );
    return (await this.findSecret(accountId))!;
  }
}
