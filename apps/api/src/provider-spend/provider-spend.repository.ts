import { Injectable } from '@nestjs/common';
import { Sql } from '@app/database';

export interface ProviderSpendRow {
  endpoint: string;
  tasks: number;
  /** numeric: the driver's text */
  usd: string;
}

/** Reads of the provider-spend ledger (rows written by the worker's rank collection). */
@Injectable()
export class ProviderSpendRepository {
  constructor(private readonly sql: Sql) {}

  /** The account's spend in the month starting `monthStart` (YYYY-MM-01), by endpoint. */
  byEndpoint(accountId: number, monthStart: string): Promise<ProviderSpendRow[]> {
    return this.sql.rows<ProviderSpendRow>(
      `SELECT endpoint, sum(tasks)::int AS tasks, sum(usd)::text AS usd FROM provider_spend
       WHERE account_id = $1 AND day >= $2::date AND day < ($2::date + interval '1 month')
       GROUP BY endpoint ORDER BY endpoint`,
      [accountId, monthStart],
    );
  }
}
