import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { recordTimestamp } from '@app/core';
import { Sql } from '@app/database';

/** How many site-audit webhook URLs the account area lists (the most recently used). */
const AUDIT_URLS_SHOWN = 20;

/** What a webhook URL is used for. */
export type WebhookUse = 'usage_alerts' | 'site_audit';

/** One row of GET /account/v1/webhooks. */
export interface AccountWebhookView {
  /** `wh_` + 24 hex digits, derived from the account and the URL (stable while it is used). */
  id: string;
  url: string;
  used_by: WebhookUse[];
  /** When a site audit last named it (null for the usage-alert URL alone). */
  last_used_at: string | null;
}

/** The id of an account's webhook URL: not guessable across accounts, stable for one. */
export function webhookEndpointId(accountId: number, url: string): string {
  return `wh_${createHash('sha256').update(`${accountId}\n${url}`).digest('hex').slice(0, 24)}`;
}

/**
 * The webhooks of an account (docs/webhooks.md, "Test deliveries"): there is no separate
 * registration, so they are the URLs it has given: the usage-alert URL
 * (`PUT /account/v1/alerts`) and the distinct `webhook_url`s of its site audits, most
 * recently used first.
 */
@Injectable()
export class AccountWebhookEndpointsRepository {
  constructor(private readonly sql: Sql) {}

  async list(accountId: number): Promise<AccountWebhookView[]> {
    const [alerts, audits] = await Promise.all([
      this.sql.rows<{ url: string }>(
        `SELECT webhook_url AS url FROM usage_alerts
         WHERE account_id = $1 AND webhook_url IS NOT NULL`,
        [accountId],
      ),
      this.sql.rows<{ url: string; last_used: Date }>(
        `SELECT webhook_url AS url, max(created_at) AS last_used FROM jobs
         WHERE account_id = $1 AND webhook_url IS NOT NULL
         GROUP BY webhook_url ORDER BY last_used DESC LIMIT $2`,
        [accountId, AUDIT_URLS_SHOWN],
      ),
    ]);
    const byUrl = new Map<string, AccountWebhookView>();
    const add = (url: string, use: WebhookUse, lastUsed: Date | null) => {
      const known = byUrl.get(url);
      if (known) {
        known.used_by.push(use);
        known.last_used_at ??= recordTimestamp(lastUsed);
        return;
      }
      byUrl.set(url, {
        id: webhookEndpointId(accountId, url),
        url,
        used_by: [use],
        last_used_at: recordTimestamp(lastUsed),
      });
    };
    for (const a of alerts) add(a.url, 'usage_alerts', null);
    for (const a of audits) add(a.url, 'site_audit', a.last_used);
    return [...byUrl.values()];
  }

  /** The account's webhook with this id, or null (another account's, or no longer used). */
  async find(accountId: number, id: string): Promise<AccountWebhookView | null> {
    if (!/^wh_[0-9a-f]{24}$/.test(id)) return null;
    return (await this.list(accountId)).find((w) => w.id === id) ?? null;
  }
}
