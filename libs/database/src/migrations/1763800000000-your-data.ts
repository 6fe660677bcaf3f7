import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Your-data: rank tracking, Google Search Console facts and AI-visibility scans.
 * Every table carries account_id; every read path has an index (see docs/your-data.md).
 */
export class YourData1763800000000 implements MigrationInterface {
  name = 'YourData1763800000000';

  async up(q: QueryRunner): Promise<void> {
    // ---- rank tracking -------------------------------------------------------------
    await q.query(`
      CREATE TABLE rank_projects (
        id          serial PRIMARY KEY,
        account_id  integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        domain      text NOT NULL,
        name        text NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT rank_projects_natural_key UNIQUE (account_id, domain)
      )`);
    await q.query(`
      CREATE TABLE tracked_keywords (
        id             serial PRIMARY KEY,
        account_id     integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        project_id     integer NOT NULL REFERENCES rank_projects(id) ON DELETE CASCADE,
        keyword        text NOT NULL,
        country        text NOT NULL,
        language       text NOT NULL,
        device         text NOT NULL,
        status         text NOT NULL DEFAULT 'active',
        difficulty     integer,
        search_volume  integer,
        cpc            numeric(12, 2),
        created_at     timestamptz NOT NULL DEFAULT now(),
        updated_at     timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT tracked_keywords_natural_key UNIQUE (project_id, keyword, country, language, device)
      )`);
    // GET /rank/keywords (all projects, or one project) in id order.
    await q.query(
      `CREATE INDEX tracked_keywords_account_idx ON tracked_keywords (account_id, project_id, id)`,
    );
    await q.query(`
      CREATE TABLE rank_checks (
        keyword_id            integer NOT NULL REFERENCES tracked_keywords(id) ON DELETE CASCADE,
        account_id            integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        check_date            date NOT NULL,
        position              integer CHECK (position IS NULL OR position >= 1),
        landing_page          text,
        gsc_clicks            integer,
        gsc_impressions       integer,
        gsc_ctr               double precision,
        gsc_average_position  double precision,
        featured_snippet      boolean NOT NULL DEFAULT false,
        ai_overview           boolean NOT NULL DEFAULT false,
        people_also_ask       boolean NOT NULL DEFAULT false,
        local_pack            boolean NOT NULL DEFAULT false,
        images                boolean NOT NULL DEFAULT false,
        videos                boolean NOT NULL DEFAULT false,
        shopping              boolean NOT NULL DEFAULT false,
        knowledge_graph       boolean NOT NULL DEFAULT false,
        sitelinks             boolean NOT NULL DEFAULT false,
        updated_at            timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (keyword_id, check_date)
      )`);
    // The primary key (keyword_id, check_date) serves "latest two checks" and the history window.

    // ---- Google Search Console -------------------------------------------------------
    await q.query(`
      CREATE TABLE gsc_properties (
        id                serial PRIMARY KEY,
        account_id        integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        property_uri      text NOT NULL,
        display_name      text NOT NULL,
        status            text NOT NULL DEFAULT 'active',
        google_email      text NOT NULL,
        is_sandbox        boolean NOT NULL DEFAULT false,
        last_synced_at    timestamptz,
        last_sync_status  text,
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT gsc_properties_natural_key UNIQUE (account_id, property_uri)
      )`);
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
        position           double precision NOT NULL CHECK (position >= 1)
      )`);
    // The natural key of a daily fact (upserts). It leads with (property_id, date), so
    // rebuilding the rollups of one date is an index range scan.
    await q.query(`
      CREATE UNIQUE INDEX gsc_rows_natural_key ON gsc_rows
        (property_id, date, query, page, country, device, search_appearance)`);
    // Daily per-dimension rollups of gsc_rows, rebuilt for the dates a batch touches (in the
    // batch's transaction). GET /gsc/queries reads these instead of the raw facts: for
    // dim=query they are ~3x smaller, for page/country/device/date far smaller.
    // dim is one of query, page, country, device, searchAppearance, date (key = the date).
    await q.query(`
      CREATE TABLE gsc_daily_rollups (
        property_id        integer NOT NULL REFERENCES gsc_properties(id) ON DELETE CASCADE,
        account_id         integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        dim                text NOT NULL,
        date               date NOT NULL,
        key                text NOT NULL,
        clicks             bigint NOT NULL,
        impressions        bigint NOT NULL,
        position_weighted  double precision NOT NULL
      )`);
    await q.query(`
      CREATE UNIQUE INDEX gsc_daily_rollups_key ON gsc_daily_rollups (property_id, dim, date, key)
        INCLUDE (clicks, impressions, position_weighted)`);
    // Calendar-month rollups (every dim but date), rebuilt from the daily rollups of the
    // months a batch touched. A period uses whole months from here and its partial months
    // (at most two edges) from the daily rollups.
    await q.query(`
      CREATE TABLE gsc_monthly_rollups (
        property_id        integer NOT NULL REFERENCES gsc_properties(id) ON DELETE CASCADE,
        account_id         integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        dim                text NOT NULL,
        month              date NOT NULL CHECK (extract(day FROM month) = 1),
        key                text NOT NULL,
        clicks             bigint NOT NULL,
        impressions        bigint NOT NULL,
        position_weighted  double precision NOT NULL
      )`);
    await q.query(`
      CREATE UNIQUE INDEX gsc_monthly_rollups_key ON gsc_monthly_rollups (property_id, dim, month, key)
        INCLUDE (clicks, impressions, position_weighted)`);

    // ---- AI visibility -----------------------------------------------------------------
    await q.query(`
      CREATE TABLE ai_visibility_projects (
        id                         serial PRIMARY KEY,
        account_id                 integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        domain                     text NOT NULL,
        brand_name                 text NOT NULL,
        target_country             text NOT NULL,
        target_language            text NOT NULL,
        ai_engine                  text NOT NULL,
        tracking_frequency         text NOT NULL,
        status                     text NOT NULL DEFAULT 'active',
        visibility_score           double precision,
        previous_visibility_score  double precision,
        created_at                 timestamptz NOT NULL DEFAULT now(),
        updated_at                 timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ai_visibility_projects_natural_key UNIQUE (account_id, domain, ai_engine)
      )`);
    await q.query(`
      CREATE TABLE ai_visibility_snapshots (
        id                 serial PRIMARY KEY,
        account_id         integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        project_id         integer NOT NULL REFERENCES ai_visibility_projects(id) ON DELETE CASCADE,
        snapshot_date      date NOT NULL,
        visibility_score   double precision NOT NULL,
        geo_score          double precision NOT NULL,
        mention_rate       double precision NOT NULL,
        avg_position       double precision,
        sentiment_avg      double precision,
        citation_rate      double precision NOT NULL,
        competition_score  double precision NOT NULL,
        prompts_evaluated  integer NOT NULL CHECK (prompts_evaluated >= 0),
        brand_mentions     integer NOT NULL CHECK (brand_mentions >= 0),
        created_at         timestamptz NOT NULL DEFAULT now(),
        updated_at         timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ai_visibility_snapshots_natural_key UNIQUE (project_id, snapshot_date)
      )`);
    // (project_id, snapshot_date) serves "newest scan" and "the one before".
    await q.query(`
      CREATE TABLE ai_visibility_competitors (
        id                 serial PRIMARY KEY,
        snapshot_id        integer NOT NULL REFERENCES ai_visibility_snapshots(id) ON DELETE CASCADE,
        account_id         integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        competitor_name    text NOT NULL,
        competitor_domain  text NOT NULL,
        mention_count      integer NOT NULL CHECK (mention_count >= 0),
        visibility_score   double precision,
        avg_position       double precision,
        updated_at         timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ai_visibility_competitors_natural_key UNIQUE (snapshot_id, competitor_domain)
      )`);
    // Top competitors of a snapshot by mention count (ties by domain).
    await q.query(`
      CREATE INDEX ai_visibility_competitors_rank_idx ON ai_visibility_competitors
        (snapshot_id, mention_count DESC, competitor_domain)`);
    // Account-scoped listings.
    await q.query(
      `CREATE INDEX ai_visibility_projects_account_idx ON ai_visibility_projects (account_id, id)`,
    );
    await q.query(`CREATE INDEX gsc_properties_account_idx ON gsc_properties (account_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ai_visibility_competitors`);
    await q.query(`DROP TABLE ai_visibility_snapshots`);
    await q.query(`DROP TABLE ai_visibility_projects`);
    await q.query(`DROP TABLE gsc_monthly_rollups`);
    await q.query(`DROP TABLE gsc_daily_rollups`);
    await q.query(`DROP TABLE gsc_rows`);
    await q.query(`DROP TABLE gsc_properties`);
    await q.query(`DROP TABLE rank_checks`);
    await q.query(`DROP TABLE tracked_keywords`);
    await q.query(`DROP TABLE rank_projects`);
  }
}
