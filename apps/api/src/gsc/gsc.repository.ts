import { Injectable } from '@nestjs/common';
import { GscDimension, GscSort } from '@app/core';
import { GscPropertyEntity, Sql } from '@app/database';
import { GscQueryPlan, PeriodSplit, splitPeriod } from './gsc-query-params';

/** One aggregated group: sums as strings (bigint) and the impression-weighted position sum. */
export interface GscGroupRow {
  key: string;
  clicks: string;
  impressions: string;
  position_weighted: number;
}

export interface GscAggregate {
  total_rows: number;
  totals: { clicks: string; impressions: string; position_weighted: number } | null;
  rows: GscGroupRow[];
}

// Fixed SQL fragments chosen from whitelisted enums only (never from request text).
const SORT_EXPR: Record<GscSort, string> = {
  clicks: 'clicks',
  impressions: 'impressions',
  ctr: 'clicks::float8 / NULLIF(impressions, 0)',
  position: 'position_weighted / NULLIF(impressions, 0)',
  key: 'key',
};

/** Reads of /gsc/properties and /gsc/queries. Ownership is part of every statement. */
@Injectable()
export class GscRepository {
  constructor(private readonly sql: Sql) {}

  listProperties(accountId: number): Promise<GscPropertyEntity[]> {
    return this.sql
      .repository(GscPropertyEntity)
      .find({ where: { accountId }, order: { id: 'ASC' } });
  }

  propertyOwned(accountId: number, propertyId: number): Promise<boolean> {
    return this.sql.repository(GscPropertyEntity).existsBy({ id: propertyId, accountId });
  }

  /**
   * One statement over the rollups: groups of the dimension in [from, to] (whole months
   * from the monthly rollups, the partial edges from the daily ones; dim=date only daily),
   * the page of `limit` groups in the requested order (ties by key), the number of groups,
   * and the property-wide totals of the period (from the per-date daily rollup).
   */
  async aggregate(
    accountId: number,
    propertyId: number,
    plan: GscQueryPlan,
  ): Promise<GscAggregate> {
    const dim: GscDimension = plan.dim;
    const dir = plan.dir === 'asc' ? 'ASC' : 'DESC';
    const order =
      plan.sort === 'key' ? `key ${dir}` : `${SORT_EXPR[plan.sort]} ${dir} NULLS LAST, key ASC`;
    const split: PeriodSplit =
      dim === 'date'
        ? { months: null, days: [[plan.from, plan.to]] }
        : splitPeriod(plan.from, plan.to);
    const [a, b] = [split.days[0] ?? [null, null], split.days[1] ?? [null, null]];
    const [m1, m2] = split.months ?? [null, null];
    const text = `
      WITH owned AS (
        SELECT 1 FROM gsc_properties WHERE id = $2 AND account_id = $1
      ), g AS MATERIALIZED (
        SELECT key, sum(clicks) AS clicks, sum(impressions) AS impressions,
               sum(position_weighted) AS position_weighted
        FROM (
          SELECT key, clicks, impressions, position_weighted FROM gsc_daily_rollups
          WHERE property_id = $2 AND dim = $3 AND date BETWEEN $4::date AND $5::date
          UNION ALL
          SELECT key, clicks, impressions, position_weighted FROM gsc_daily_rollups
          WHERE property_id = $2 AND dim = $3 AND date BETWEEN $6::date AND $7::date
          UNION ALL
          SELECT key, clicks, impressions, position_weighted FROM gsc_monthly_rollups
          WHERE property_id = $2 AND dim = $3 AND month BETWEEN $8::date AND $9::date
        ) u
        WHERE EXISTS (SELECT 1 FROM owned)
        GROUP BY key
      ), t AS (
        SELECT sum(r.clicks) AS clicks, sum(r.impressions) AS impressions,
               sum(r.position_weighted) AS position_weighted
        FROM gsc_daily_rollups r
        WHERE r.property_id = $2 AND EXISTS (SELECT 1 FROM owned)
          AND r.dim = 'date' AND r.date BETWEEN $10::date AND $11::date
      ), page AS (
        SELECT key, clicks, impressions, position_weighted FROM g ORDER BY ${order} LIMIT $12
      )
      SELECT (SELECT count(*) FROM g)::int AS total_rows,
             (SELECT row_to_json(t) FROM t WHERE t.impressions IS NOT NULL) AS totals,
             COALESCE((SELECT json_agg(page ORDER BY ${order}) FROM page), '[]'::json) AS rows`;
    const params = [
      accountId,
      propertyId,
      dim,
      a[0],
      a[1],
      b[0],
      b[1],
      m1,
      m2,
      plan.from,
      plan.to,
      plan.limit,
    ];
    return (await this.sql.one<GscAggregate>(text, params))!;
  }
}
