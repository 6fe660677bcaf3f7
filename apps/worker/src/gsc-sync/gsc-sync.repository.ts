import { Injectable } from '@nestjs/common';
import { GscSyncStatus, Sql, SqlScope } from '@app/database';

/** A property a worker claimed, with what syncing it needs. */
export interface ClaimedProperty {
  id: number;
  account_id: number;
  property_uri: string;
  is_sandbox: boolean;
  connection_id: number | null;
  google_email: string;
  /** The connection's sealed refresh token (null for a sandbox property). */
  refresh_token_enc: string | null;
  /** YYYY-MM-DD, or null until the first run plans the backfill. */
  backfill_from: string | null;
  backfill_days_total: number;
  backfill_days_done: number;
  /** The claim: this worker's until then, and the fence every write of the run checks. */
  claimed_until: Date;
}

/** The claim was lost (it expired and another worker took the property): the run stops. */
export class LostClaimError extends Error {
  constructor(propertyId: number) {
    super(`GSC property ${propertyId}: claim lost`);
  }
}

/** How a run ends for a property: its status, when it is next due, its last error. */
export interface RunEnd {
  status: Exclude<GscSyncStatus, 'syncing' | 'pending'>;
  nextSyncAt: Date;
  lastError: string | null;
}

/**
 * Statements of the Search Console sync (docs/gsc-sync.md): the claim on due properties (a
 * lease in `sync_claimed_until` that fences every write of the run), the progress recorded
 * with each stored day, how a run ends, and a refused Google connection.
 */
@Injectable()
export class GscSyncRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Claims up to `limit` due properties: active, `next_sync_at` passed (a property the admin
   * ingestion created has none: it is never synced), not claimed by a live lease, a sandbox
   * or on an active connection. Longest waiting first. One statement (SKIP LOCKED), so two
   * workers never claim the same property; `last_sync_status` becomes `syncing`.
   */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedProperty[]> {
    return this.sql.rows<ClaimedProperty>(
      `WITH due AS (
         SELECT p.id, p.connection_id FROM gsc_properties p
         LEFT JOIN gsc_connections c ON c.id = p.connection_id
         WHERE p.status = 'active' AND p.next_sync_at <= $1
           AND (p.sync_claimed_until IS NULL OR p.sync_claimed_until < $1)
           AND (p.is_sandbox OR c.status = 'active')
         ORDER BY p.next_sync_at, p.id
         LIMIT $3
         FOR UPDATE OF p SKIP LOCKED
       )
       UPDATE gsc_properties p SET sync_claimed_until = $2, last_sync_status = 'syncing', updated_at = $1
       FROM due LEFT JOIN gsc_connections c ON c.id = due.connection_id
       WHERE p.id = due.id
       RETURNING p.id, p.account_id, p.property_uri, p.is_sandbox, p.connection_id, p.google_email,
                 CASE WHEN p.is_sandbox THEN NULL ELSE c.refresh_token_enc END AS refresh_token_enc,
                 to_char(p.backfill_from, 'YYYY-MM-DD') AS backfill_from, p.backfill_days_total,
                 p.backfill_days_done, p.sync_claimed_until AS claimed_until`,
      [now, leaseUntil, limit],
    );
  }

  /**
   * Records the run's plan of a property claimed without one (its first run), fenced by the
   * claim.
   */
  async planBackfill(
    p: ClaimedProperty,
    plan: { backfillFrom: string; daysTotal: number },
  ): Promise<void> {
    await this.fenced(
      this.sql,
      p,
      `backfill_from = $3::date, backfill_days_total = $4, backfill_days_done = 0`,
      [plan.backfillFrom, plan.daysTotal],
    );
  }

  /**
   * In the transaction that stored a day: the property's progress (`backfill_days_done` +
   * `doneInc`, `backfill_days_total` + `totalInc`), `last_synced_at`, the claim extended to
   * `leaseUntil` (the caller takes it as its fence once the transaction commits). Throws
   * LostClaimError (rolling the day back) when the claim is no longer this run's.
   */
  async recordDay(
    tx: SqlScope,
    p: ClaimedProperty,
    now: Date,
    leaseUntil: Date,
    progress: { doneInc: number; totalInc: number },
  ): Promise<void> {
    await this.fenced(
      tx,
      p,
      `backfill_days_done = backfill_days_done + $3, backfill_days_total = backfill_days_total + $4,
       last_synced_at = $5, sync_claimed_until = $6, updated_at = $5`,
      [progress.doneInc, progress.totalInc, now, leaseUntil],
    );
  }

  /** Ends the run: the status, when the property is next due, the last error; the claim released. */
  async endRun(p: ClaimedProperty, end: RunEnd, now: Date): Promise<void> {
    await this.fenced(
      this.sql,
      p,
      `last_sync_status = $3, next_sync_at = $4, last_error = $5, sync_claimed_until = NULL,
       updated_at = $6`,
      [end.status, end.nextSyncAt, end.lastError, now],
    );
  }

  /**
   * Google refused the connection's refresh token: the connection and every property on it
   * are `reauth_required` (status and last_sync_status) until the account reconnects; the
   * claim of `p` is released.
   */
  async requireReauth(p: ClaimedProperty, message: string, now: Date): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await tx.run(
        `UPDATE gsc_connections SET status = 'reauth_required', updated_at = $2
         WHERE id = $1 AND status = 'active'`,
        [p.connection_id, now],
      );
      await tx.run(
        `UPDATE gsc_properties SET status = 'reauth_required', last_sync_status = 'reauth_required',
           last_error = $2, updated_at = $3,
           sync_claimed_until = CASE WHEN id = $4 THEN NULL ELSE sync_claimed_until END
         WHERE connection_id = $1`,
        [p.connection_id, message.slice(0, 500), now, p.id],
      );
    });
  }

  /** Days still to backfill over every active property (the gauge). */
  async backfillDaysRemaining(): Promise<number> {
    const row = await this.sql.one<{ n: string | null }>(
      `SELECT sum(backfill_days_total - backfill_days_done) AS n FROM gsc_properties
       WHERE status = 'active' AND next_sync_at IS NOT NULL`,
    );
    return Number(row?.n ?? 0);
  }

  private async fenced(
    scope: SqlScope,
    p: ClaimedProperty,
    set: string,
    params: unknown[],
  ): Promise<void> {
    const row = await scope.one<{ id: number }>(
      `UPDATE gsc_properties SET ${set} WHERE id = $1 AND sync_claimed_until = $2 RETURNING id`,
      [p.id, p.claimed_until, ...params],
    );
    if (!row) throw new LostClaimError(p.id);
  }
}
