import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * gsc_rows, gsc_daily_rollups and gsc_monthly_rollups were created without a primary key,
 * their identity being a unique index on the natural key (all of its columns NOT NULL).
 * Each of those indexes becomes the table's primary key as it is (same columns, same
 * INCLUDE, no rebuild; PostgreSQL renames it to <table>_pkey), so the entities can declare
 * the key. `ON CONFLICT (<key columns>)` infers the same unique index: no behaviour change.
 */
export class GscPrimaryKeys1764100000000 implements MigrationInterface {
  name = 'GscPrimaryKeys1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE gsc_rows ADD CONSTRAINT gsc_rows_pkey PRIMARY KEY USING INDEX gsc_rows_natural_key`,
    );
    await q.query(
      `ALTER TABLE gsc_daily_rollups ADD CONSTRAINT gsc_daily_rollups_pkey PRIMARY KEY USING INDEX gsc_daily_rollups_key`,
    );
    await q.query(
      `ALTER TABLE gsc_monthly_rollups ADD CONSTRAINT gsc_monthly_rollups_pkey PRIMARY KEY USING INDEX gsc_monthly_rollups_key`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gsc_monthly_rollups DROP CONSTRAINT gsc_monthly_rollups_pkey`);
    await q.query(`
      CREATE UNIQUE INDEX gsc_monthly_rollups_key ON gsc_monthly_rollups (property_id, dim, month, key)
        INCLUDE (clicks, impressions, position_weighted)`);
    await q.query(`ALTER TABLE gsc_daily_rollups DROP CONSTRAINT gsc_daily_rollups_pkey`);
    await q.query(`
      CREATE UNIQUE INDEX gsc_daily_rollups_key ON gsc_daily_rollups (property_id, dim, date, key)
        INCLUDE (clicks, impressions, position_weighted)`);
    await q.query(`ALTER TABLE gsc_rows DROP CONSTRAINT gsc_rows_pkey`);
    await q.query(`
      CREATE UNIQUE INDEX gsc_rows_natural_key ON gsc_rows
        (property_id, date, query, page, country, device, search_appearance)`);
  }
}
