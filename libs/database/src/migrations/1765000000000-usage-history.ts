import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Usage history and usage alerts (docs/usage-history.md):
 * - `usage_events`: the counted calls, appended by the meter's own statement (one row per
 *   distinct line of a batch, with its count; events and history together always sum to the
 *   meter), rolled up by the worker into
 * - `usage_daily`: calls per account, UTC day, key or hosted-MCP connection, endpoint and
 *   cost group;
 * - `usage_alerts`: an account's alert settings; `usage_alert_fired`: one row per account,
 *   month and threshold that fired (the exactly-once guard);
 * - `webhook_deliveries` also carries usage alerts: no job, the event's data stored with it.
 */
export class UsageHistory1765000000000 implements MigrationInterface {
  name = 'UsageHistory1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE usage_daily (
        account_id  integer NOT NULL,
        day         date NOT NULL,
        key_id      integer NOT NULL,
        grant_id    integer NOT NULL,
        endpoint    text NOT NULL,
        cost_group  text NOT NULL,
        calls       integer NOT NULL,
        PRIMARY KEY (account_id, day, key_id, grant_id, endpoint, cost_group),
        CONSTRAINT usage_daily_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT usage_daily_cost_group_check CHECK (cost_group IN ('research', 'your-data', 'other')),
        CONSTRAINT usage_daily_calls_check CHECK (calls >= 0),
        CONSTRAINT usage_daily_endpoint_check CHECK (length(endpoint) BETWEEN 1 AND 200),
        CONSTRAINT usage_daily_caller_check CHECK (key_id >= 0 AND grant_id >= 0)
      )`);
    // The retention deletes by day across accounts.
    await q.query(`CREATE INDEX usage_daily_day_idx ON usage_daily (day)`);
    // Appended on the hot path: no foreign key (its check would lock the account row on every
    // call) and one index, which also serves the reads of an account's events not yet rolled up.
    await q.query(`
      CREATE TABLE usage_events (
        account_id  integer NOT NULL,
        id          bigserial NOT NULL,
        day         date NOT NULL,
        key_id      integer NOT NULL,
        grant_id    integer NOT NULL,
        endpoint    text NOT NULL,
        cost_group  text NOT NULL,
        calls       integer NOT NULL,
        PRIMARY KEY (account_id, id)
      )`);
    // The meter's count before its last statement: the statement answers how many calls of
    // its batch it admitted (group commit, CallMeterService).
    await q.query(`ALTER TABLE api_call_meter ADD COLUMN used_before integer NOT NULL DEFAULT 0`);

    await q.query(`
      CREATE TABLE usage_alerts (
        account_id   integer PRIMARY KEY,
        webhook_url  text,
        thresholds   smallint[] NOT NULL,
        updated_at   timestamptz NOT NULL,
        CONSTRAINT usage_alerts_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT usage_alerts_thresholds_check
          CHECK (cardinality(thresholds) BETWEEN 1 AND 3 AND 1 <= ALL (thresholds) AND 100 >= ALL (thresholds))
      )`);
    await q.query(`
      CREATE TABLE usage_alert_fired (
        account_id   integer NOT NULL,
        month        date NOT NULL,
        threshold    smallint NOT NULL,
        fired_at     timestamptz NOT NULL,
        delivery_id  text,
        PRIMARY KEY (account_id, month, threshold),
        CONSTRAINT usage_alert_fired_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE
      )`);

    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN job_id DROP NOT NULL`);
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN payload jsonb`);
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_check`);
    await q.query(
      `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_check
         CHECK (event IN ('site_audit.completed', 'site_audit.failed', 'usage.threshold_reached'))`,
    );
    // A job's delivery has its job (its data is the job record when sent); a usage alert has
    // none and carries its data.
    await q.query(
      `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_subject_check
         CHECK (CASE WHEN event = 'usage.threshold_reached' THEN job_id IS NULL AND payload IS NOT NULL
                     ELSE job_id IS NOT NULL END)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM webhook_deliveries WHERE job_id IS NULL`);
    await q.query(
      `ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_subject_check`,
    );
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_check`);
    await q.query(
      `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_check
         CHECK (event IN ('site_audit.completed', 'site_audit.failed'))`,
    );
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN payload`);
    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN job_id SET NOT NULL`);
    await q.query(`DROP TABLE usage_alert_fired`);
    await q.query(`DROP TABLE usage_alerts`);
    await q.query(`ALTER TABLE api_call_meter DROP COLUMN used_before`);
    await q.query(`DROP TABLE usage_events`);
    await q.query(`DROP TABLE usage_daily`);
  }
}
