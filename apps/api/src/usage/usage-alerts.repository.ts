import { Injectable } from '@nestjs/common';
import { Sql, UsageAlertsEntity } from '@app/database';

interface FiredRow {
  threshold: number;
  month: string;
  fired_at: Date;
}

/** Usage-alert settings (`usage_alerts`) and the alerts that fired (`usage_alert_fired`). */
@Injectable()
export class UsageAlertsRepository {
  constructor(private readonly sql: Sql) {}

  find(accountId: number): Promise<UsageAlertsEntity | null> {
    return this.sql.repository(UsageAlertsEntity).findOneBy({ accountId });
  }

  /** Replaces the account's settings (one upsert). */
  async save(
    accountId: number,
    webhookUrl: string | null,
    thresholds: number[],
    now: Date,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO usage_alerts (account_id, webhook_url, thresholds, updated_at)
       VALUES ($1, $2, $3::smallint[], $4)
       ON CONFLICT (account_id) DO UPDATE
         SET webhook_url = EXCLUDED.webhook_url, thresholds = EXCLUDED.thresholds,
             updated_at = EXCLUDED.updated_at`,
      [accountId, webhookUrl, thresholds, now],
    );
  }

  /** The latest firing of each threshold that ever fired, by threshold. */
  lastFired(accountId: number): Promise<FiredRow[]> {
    return this.sql.rows<FiredRow>(
      `SELECT DISTINCT ON (threshold) threshold, to_char(month, 'YYYY-MM') AS month, fired_at
       FROM usage_alert_fired WHERE account_id = $1
       ORDER BY threshold, month DESC`,
      [accountId],
    );
  }

  /**
   * Records that `threshold` fired in `month` and writes its webhook delivery (the outbox
   * row of docs/webhooks.md, with the event's data), in one statement — only while the
   * account's current settings still have that threshold and a webhook_url, and only the
   * first time in the month: the primary key of usage_alert_fired makes concurrent calls
   * that reach it together write one delivery. Answers the new delivery's id (null when
   * nothing was written) and whether it had fired before this statement.
   */
  async fire(
    accountId: number,
    month: string,
    threshold: number,
    deliveryId: string,
    payload: object,
    now: Date,
  ): Promise<{ id: string | null; firedBefore: boolean }> {
    const row = await this.sql.one<{ id: string | null; fired_before: boolean }>(
      `WITH settings AS (
         SELECT webhook_url FROM usage_alerts
         WHERE account_id = $1 AND webhook_url IS NOT NULL AND $3::smallint = ANY (thresholds)),
       fired AS (
         INSERT INTO usage_alert_fired (account_id, month, threshold, fired_at, delivery_id)
         SELECT $1, $2::date, $3, $5, $4 FROM settings
         ON CONFLICT DO NOTHING
         RETURNING delivery_id),
       delivery AS (
         INSERT INTO webhook_deliveries
           (id, account_id, job_id, event, url, status, attempts, next_attempt_at, created_at, payload)
         SELECT fired.delivery_id, $1, NULL, 'usage.threshold_reached', settings.webhook_url,
                'pending', 0, $5, $5, $6::jsonb
         FROM fired, settings
         RETURNING id)
       SELECT (SELECT id FROM delivery) AS id,
              EXISTS (SELECT 1 FROM usage_alert_fired
                      WHERE account_id = $1 AND month = $2::date AND threshold = $3) AS fired_before`,
      [accountId, month, threshold, deliveryId, now, JSON.stringify(payload)],
    );
    return { id: row?.id ?? null, firedBefore: row?.fired_before ?? false };
  }
}
