import { Injectable } from '@nestjs/common';
import { monthAfter } from '@app/core';
import { LimitOverrides, PLANS, PlanName } from '@app/plans';
import { Sql, statementMonth } from '@app/database';

/** The `data` of a `usage.threshold_reached` delivery. */
export interface ThresholdReachedData {
  threshold: number;
  api_calls_used: number;
  api_calls_limit: number;
  resets_at: string;
}

/** The event's data: `month` is the meter's (PostgreSQL's), resets_at the first of the next. */
export function thresholdReachedData(
  threshold: number,
  used: number,
  limit: number,
  month: string,
): ThresholdReachedData {
  return { threshold, api_calls_used: used, api_calls_limit: limit, resets_at: monthAfter(month) };
}

/** An account whose meter row of the month has reached a usage-alert threshold that has not fired. */
export interface DueAlerts {
  accountId: number;
  /** The month (PostgreSQL's, YYYY-MM-DD). */
  month: string;
  /** The month's count now. */
  used: number;
  plan: PlanName;
  overrides: LimitOverrides | null;
  /** The account's thresholds the count has reached that have not fired this month. */
  reached: number[];
}

/**
 * The monthly call allowance of each plan, as a JSON object (plan → number, absent when
 * unlimited): the due-alerts statement's pre-filter; the caller checks each candidate again
 * with the plan catalogue's own rule (resolveLimits).
 */
function planAllowances(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, plan] of Object.entries(PLANS)) {
    const v = plan.limits.api_calls_per_month;
    if (typeof v === 'number') out[name] = v;
  }
  return out;
}

/**
 * Firing usage alerts (`usage_alert_fired` + the `webhook_deliveries` outbox row): the
 * statement shared by the API (right after the metering guard sees a threshold reached) and
 * the worker's sweep (which derives from the meter rows the alerts that should have fired
 * and did not: docs/usage-history.md).
 */
@Injectable()
export class UsageAlertFiringRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Records that `threshold` fired in `month` and writes its webhook delivery (the outbox
   * row of docs/webhooks.md, with the event's data), in one statement — only while the
   * account's current settings still have that threshold and a webhook_url, and only the
   * first time in the month: the primary key of usage_alert_fired makes concurrent calls
   * (and sweeps) that reach it together write one delivery. Answers the new delivery's id
   * (null when nothing was written) and whether it had fired before this statement.
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

  /**
   * Accounts with alerts on whose meter row of the month (PostgreSQL's; `at` only in tests)
   * has reached a threshold that has not fired, at most `max`, by account. The allowance is
   * the override when it is a number, else the plan's (`unlimited`: never due): a pre-filter,
   * which the caller checks again with resolveLimits. Reads the meter row by its primary key
   * per account with alerts on; nothing on the request path.
   */
  async due(at: Date | null, max: number): Promise<DueAlerts[]> {
    const rows = await this.sql.rows<DueRow>(DUE_ALERTS_SQL, [
      at,
      JSON.stringify(planAllowances()),
      max,
    ]);
    return rows.map((r) => ({
      accountId: r.account_id,
      month: r.month,
      used: r.used,
      plan: r.plan,
      overrides: r.overrides,
      reached: r.reached,
    }));
  }
}

/** A meter row of the month that reached an alert threshold not yet fired (see `due`). */
interface DueRow {
  account_id: number;
  month: string;
  used: number;
  plan: PlanName;
  overrides: LimitOverrides | null;
  reached: number[];
}

/** `due`'s statement: $1 the time (null: PostgreSQL's now()), $2 the plans' allowances, $3 max. */
const DUE_ALERTS_SQL = `WITH month AS (SELECT ${statementMonth('$1')} AS m),
   candidates AS (
     SELECT s.account_id, month.m, mt.used, a.plan, a.overrides, s.thresholds,
            CASE jsonb_typeof(a.overrides -> 'api_calls_per_month')
              WHEN 'number' THEN (a.overrides ->> 'api_calls_per_month')::bigint
              WHEN 'string' THEN NULL
              ELSE ($2::jsonb ->> a.plan)::bigint END AS allowance
     FROM usage_alerts s
     CROSS JOIN month
     JOIN api_call_meter mt ON mt.account_id = s.account_id AND mt.period_start = month.m
     JOIN accounts a ON a.id = s.account_id
     WHERE s.webhook_url IS NOT NULL)
   SELECT c.account_id, c.m::text AS month, c.used, c.plan, c.overrides,
          array_agg(t.threshold::int ORDER BY t.threshold) AS reached
   FROM candidates c
   CROSS JOIN unnest(c.thresholds) AS t (threshold)
   WHERE c.allowance > 0 AND c.used::bigint * 100 >= t.threshold::bigint * c.allowance
     AND NOT EXISTS (SELECT 1 FROM usage_alert_fired f
                     WHERE f.account_id = c.account_id AND f.month = c.m
                       AND f.threshold = t.threshold)
   GROUP BY c.account_id, c.m, c.used, c.plan, c.overrides
   ORDER BY c.account_id
   LIMIT $3`;
