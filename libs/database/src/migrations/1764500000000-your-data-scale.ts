import { MigrationInterface, QueryRunner } from 'typeorm';

/** The latest-check columns kept on tracked_keywords (see docs/your-data.md, "Rank tracking"). */
const LATEST_COLUMNS = `
  latest_check_date date,
  latest_position integer,
  previous_position integer,
  latest_landing_page text,
  latest_gsc_clicks integer,
  latest_gsc_impressions integer,
  latest_gsc_ctr double precision,
  latest_local_pack boolean,
  latest_featured_snippet boolean,
  latest_ai_overview boolean`;

/**
 * Your-data at agency scale (docs/your-data.md, docs/performance.md "Your-data at agency scale"):
 * 1. tracked_keywords keeps its latest check (the newest by date, whatever its date) and the
 *    position of the check before it, maintained by the checks ingestion; backfilled here.
 * 2. gsc_rows becomes a table partitioned by calendar month (RANGE on date, one partition
 *    `gsc_rows_pYYYYMM` per month, created ahead by ingestion and the worker's maintenance,
 *    old months detached and dropped by the retention job). The existing rows are moved.
 *    Same columns, same constraint names, same primary key.
 */
export class YourDataScale1764500000000 implements MigrationInterface {
  name = 'YourDataScale1764500000000';

  async up(q: QueryRunner): Promise<void> {
    // ---- rank: latest check on the keyword row ------------------------------------------
    await q.query(
      `ALTER TABLE tracked_keywords ${LATEST_COLUMNS.split(',')
        .map((c) => `ADD COLUMN ${c.trim()}`)
        .join(', ')}`,
    );
    await q.query(`
      UPDATE tracked_keywords k SET
        latest_check_date = l.check_date, latest_position = l.position,
        previous_position = l.previous_position,
        latest_landing_page = l.landing_page, latest_gsc_clicks = l.gsc_clicks,
        latest_gsc_impressions = l.gsc_impressions, latest_gsc_ctr = l.gsc_ctr,
        latest_local_pack = l.local_pack, latest_featured_snippet = l.featured_snippet,
        latest_ai_overview = l.ai_overview
      FROM (
        SELECT c.*, lead(c.position) OVER w AS previous_position, row_number() OVER w AS n
        FROM rank_checks c
        WINDOW w AS (PARTITION BY c.keyword_id ORDER BY c.check_date DESC)
      ) l
      WHERE l.keyword_id = k.id AND l.n = 1`);

    // ---- GSC facts: partitioned by month ------------------------------------------------
    await q.query(`ALTER TABLE gsc_rows RENAME TO gsc_rows_unpartitioned`);
    await q.query(
      `ALTER TABLE gsc_rows_unpartitioned RENAME CONSTRAINT gsc_rows_pkey TO gsc_rows_unpartitioned_pkey`,
    );
    for (const c of [
      'property_id_fkey',
      'account_id_fkey',
      'clicks_check',
      'impressions_check',
      'position_check',
    ]) {
      await q.query(
        `ALTER TABLE gsc_rows_unpartitioned RENAME CONSTRAINT gsc_rows_${c} TO gsc_rows_unpartitioned_${c}`,
      );
    }
    await q.query(`
      CREATE TABLE gsc_rows (
        property_id        integer NOT NULL,
        account_id         integer NOT NULL,
        date               date NOT NULL,
        query              text NOT NULL,
        page               text NOT NULL,
        country            text NOT NULL,
        device             text NOT NULL,
        search_appearance  text NOT NULL DEFAULT '',
        clicks             integer NOT NULL,
        impressions        integer NOT NULL,
        position           double precision NOT NULL,
        CONSTRAINT gsc_rows_pkey PRIMARY KEY (property_id, date, query, page, country, device, search_appearance),
        CONSTRAINT gsc_rows_property_id_fkey FOREIGN KEY (property_id) REFERENCES gsc_properties(id) ON DELETE CASCADE,
        CONSTRAINT gsc_rows_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT gsc_rows_clicks_check CHECK (clicks >= 0),
        CONSTRAINT gsc_rows_impressions_check CHECK (impressions >= 0),
        CONSTRAINT gsc_rows_position_check CHECK (position >= 1)
      ) PARTITION BY RANGE (date)`);
    // One partition per month holding data, plus this month and the next two.
    await q.query(`
      DO $$
      DECLARE m date;
      BEGIN
        FOR m IN
          SELECT DISTINCT date_trunc('month', date)::date FROM gsc_rows_unpartitioned
          UNION
          SELECT (date_trunc('month', now()) + make_interval(months => i))::date FROM generate_series(0, 2) i
        LOOP
          EXECUTE format('CREATE TABLE %I PARTITION OF gsc_rows FOR VALUES FROM (%L) TO (%L)',
                         'gsc_rows_p' || to_char(m, 'YYYYMM'), m, (m + interval '1 month')::date);
        END LOOP;
      END $$`);
    await q.query(`
      INSERT INTO gsc_rows (property_id, account_id, date, query, page, country, device, search_appearance,
                            clicks, impressions, position)
      SELECT property_id, account_id, date, query, page, country, device, search_appearance,
             clicks, impressions, position
      FROM gsc_rows_unpartitioned
      ORDER BY property_id, date, query, page, country, device, search_appearance`);
    await q.query(`DROP TABLE gsc_rows_unpartitioned`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gsc_rows RENAME TO gsc_rows_partitioned`);
    await q.query(
      `ALTER TABLE gsc_rows_partitioned RENAME CONSTRAINT gsc_rows_pkey TO gsc_rows_partitioned_pkey`,
    );
    await q.query(`
      CREATE TABLE gsc_rows (
        property_id        integer NOT NULL REFERENCES gsc_properties(id) ON DELETE CASCADE,
        account_id         integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        date               date NOT NULL,
        query              text NOT NULL,
        page               text NOT NULL,
        country            text NOT NULL,
        device             text NOT NULL,
        search_appearance  text NOT NULL DEFAULT '',
        clicks             integer NOT NULL CHECK (clicks >= 0),
        impressions        integer NOT NULL CHECK (impressions >= 0),
        position           double precision NOT NULL CHECK (position >= 1),
        CONSTRAINT gsc_rows_pkey PRIMARY KEY (property_id, date, query, page, country, device, search_appearance)
      )`);
    await q.query(`INSERT INTO gsc_rows SELECT * FROM gsc_rows_partitioned`);
    await q.query(`DROP TABLE gsc_rows_partitioned`);
    await q.query(
      `ALTER TABLE tracked_keywords ${LATEST_COLUMNS.split(',')
        .map((c) => `DROP COLUMN ${c.trim().split(/\s+/)[0]}`)
        .join(', ')}`,
    );
  }
}
