import { Injectable } from '@nestjs/common';
import { Sql, UsageAlertsEntity } from '@app/database';

interface FiredRow {
  threshold: number;
  month: string;
  fired_at: Date;
}

/**
 * Usage-alert settings (`usage_alerts`) and the alerts that fired (`usage_alert_fired`). The
 * statement that fires one is libs/billing's UsageAlertFiringRepository (the worker's sweep
 * runs it too).
 */
@Injectable()
export class UsageAlertsRepository {
  constructor(private readonly sql: Sql) {}

  find(accountId: number): Promise<UsageAlertsEntity | null> {
    return this.sql.repository(UsageAlertsEntity).findOneBy({ accountId });
  }

  /** The account's thresholds while alerts are on (a webhook_url is set), else none. */
  async activeThresholds(accountId: number): Promise<number[]> {
    const row = await this.sql.one<{ thresholds: number[] }>(
      `SELECT thresholds FROM usage_alerts WHERE account_id = $1 AND webhook_url IS NOT NULL`,
      [accountId],
    );
    return row?.thresholds ?? [];
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
}
