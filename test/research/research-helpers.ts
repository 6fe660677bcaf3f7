import { DataSource } from 'typeorm';
import { AdminClient } from '../helpers/fixtures';

/** Limits that keep the call meter and per-minute throttle out of the way of billing tests. */
export const ROOMY = { api_calls_per_month: 'unlimited', requests_per_minute: 100_000 };

export async function usageOf(
  admin: AdminClient,
  accountId: number,
): Promise<Record<string, number>> {
  const res = await admin.get(`/accounts/${accountId}`);
  if (res.status !== 200) throw new Error(`account read failed: ${res.status}`);
  return res.body.data.usage;
}

export interface LedgerRow {
  delta: number;
  balance_after: number;
  reason: string;
  request_id: string | null;
}

/** The account's credit ledger, oldest first, without the admin top-ups. */
export async function researchLedger(db: DataSource, accountId: number): Promise<LedgerRow[]> {
  return db.query(
    `SELECT delta, balance_after, reason, request_id FROM credit_ledger
     WHERE account_id = $1 AND reason NOT LIKE 'admin:%' ORDER BY id`,
    [accountId],
  );
}

export async function reservationsOf(
  db: DataSource,
  accountId: number,
): Promise<Array<{ kind: string; state: string; request_id: string }>> {
  return db.query(
    `SELECT kind, state, request_id FROM research_reservations WHERE account_id = $1 ORDER BY id`,
    [accountId],
  );
}
