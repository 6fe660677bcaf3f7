import { recordTimestamp } from '@app/core';
import type { WebhookDeliveryEntity, WebhookSecretEntity } from '@app/database';

/** GET …/webhook-secret (admin and account area). */
export interface WebhookSecretView {
  secret: string;
  created_at: string;
  previous_secret_valid_until: string | null;
}

/** One row of GET …/webhook-deliveries (admin and account area). */
export interface WebhookDeliveryView {
  id: string;
  /** null for a usage alert (`usage.threshold_reached`). */
  job_id: string | null;
  event: string;
  url: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_attempt_at: string | null;
  delivered_at: string | null;
}

/** The previous secret's end is shown only while it still signs. */
export function toSecretView(row: WebhookSecretEntity, now: Date): WebhookSecretView {
  const until = row.previousSecretValidUntil;
  return {
    secret: row.secret,
    created_at: recordTimestamp(row.createdAt),
    previous_secret_valid_until: until && until > now ? recordTimestamp(until) : null,
  };
}

export function toDeliveryView(row: WebhookDeliveryEntity): WebhookDeliveryView {
  return {
    id: row.id,
    job_id: row.jobId,
    event: row.event,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_attempt_at: recordTimestamp(row.lastAttemptAt),
    delivered_at: recordTimestamp(row.deliveredAt),
  };
}
