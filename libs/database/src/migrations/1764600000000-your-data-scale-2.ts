import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Your-data at agency scale, part 2 (docs/your-data.md "Search Console", docs/performance.md
 * "Your-data at agency scale"): gsc_weekly_rollups, the per-dimension sums (every dim but
 * date) of 7-day blocks of a calendar month: days 1-7, 8-14, 15-21, 22-28 and 29 to the end
 * of the month (0-3 days; absent in a 28-day February). `week` is the block's first day, so
 * a block never crosses a month and the retention (whole months) stays exact. A period
 * reads whole months from gsc_monthly_rollups, whole blocks of its edges from this table and
 * only the remaining days (at most 6 before and 6 after the blocks of each edge) from
 * gsc_daily_rollups. Backfilled here from the daily rollups.
 */
export class YourDataScale21764600000000 implements MigrationInterface {
  name = 'YourDataScale21764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE gsc_weekly_rollups (
        property_id        integer NOT NULL,
        account_id         integer NOT NULL,
        dim                text NOT NULL,
        week               date NOT NULL,
        key                text NOT NULL,
        clicks             bigint NOT NULL,
        impressions        bigint NOT NULL,
        position_weighted  double precision NOT NULL,
        CONSTRAINT gsc_weekly_rollups_pkey PRIMARY KEY (property_id, dim, week, key)
          INCLUDE (clicks, impressions, position_weighted),
        CONSTRAINT gsc_weekly_rollups_property_id_fkey FOREIGN KEY (property_id)
          REFERENCES gsc_properties(id) ON DELETE CASCADE,
        CONSTRAINT gsc_weekly_rollups_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT gsc_weekly_rollups_week_check CHECK (extract(day FROM week) IN (1, 8, 15, 22, 29))
      )`);
    await q.query(`
      INSERT INTO gsc_weekly_rollups (property_id, account_id, dim, week, key, clicks, impressions, position_weighted)
      SELECT property_id, account_id, dim,
             date_trunc('month', date)::date + least((extract(day FROM date)::int - 1) / 7, 4) * 7,
             key, sum(clicks), sum(impressions), sum(position_weighted)
      FROM gsc_daily_rollups
      WHERE dim <> 'date'
      GROUP BY property_id, account_id, dim,
               date_trunc('month', date)::date + least((extract(day FROM date)::int - 1) / 7, 4) * 7, key`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gsc_weekly_rollups`);
  }
}
