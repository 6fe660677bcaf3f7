import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * GET /rank/keywords as pre-rendered JSON (docs/your-data.md "Rank tracking", measured in
 * docs/performance.md "Your-data at agency scale"). Each tracked keyword keeps the JSON text
 * of its own members of the answer: `json_head` (keyword_id … status) and `json_latest`
 * (last_checked … ai_overview, from the stored latest check); each project keeps
 * `json_members` (project_id, project_domain, project_name). BEFORE INSERT OR UPDATE
 * triggers render them from the row itself, so every write path (admin API, checks
 * ingestion, demo seed, SQL) keeps them right. The read selects the three texts and the API
 * joins them into the answer: no per-field parsing in the driver, no per-field
 * serialization in the API, no per-row JSON work in PostgreSQL.
 *
 * The renderings are those `JSON.stringify` makes of the spec-shaped entry
 * (test/your-data/rank-json.e2e-spec.ts holds them to it byte for byte):
 * strings through `to_json` (the same escapes), numbers as their shortest round-trip text
 * (numeric cpc through double precision, as the view's `Number()`), `null` for null, NaN and
 * ±Infinity; a test compares both byte for byte on hostile values. A float below 1e-4 keeps
 * PostgreSQL's exponent form (`1e-05`; JavaScript writes `0.00001`): the same JSON number.
 *
 * The rendering definition is owned by the rank folder: apps/api/src/rank/rank-keyword-json.sql.ts
 * (generated from the entry's member list; the entry's shape is `trackedKeywordView` in
 * rank.mapper.ts). This migration keeps its own text, frozen as applied; it does not import
 * that file (libs never import apps, and a migration's meaning must not change with a later
 * edit). The e2e test above fails unless the functions installed here equal that definition.
 * A change to the rendering is a new migration pasting `rankJsonFunctionsSql()` as of that day.
 */
export class RankKeywordJson1764700000000 implements MigrationInterface {
  name = 'RankKeywordJson1764700000000';

  async up(q: QueryRunner): Promise<void> {
    // extra_float_digits = 1 (PostgreSQL's default): the shortest text that reads back as
    // the same double, whatever the session asks for.
    await q.query(`
      CREATE FUNCTION json_number(v double precision) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE SET extra_float_digits = 1
        AS $$ SELECT CASE WHEN v IS NULL OR v IN ('NaN', 'Infinity', '-Infinity') THEN 'null'
                         ELSE v::text END $$`);
    await q.query(`
      CREATE FUNCTION rank_keyword_head_json(
        id integer, keyword text, difficulty integer, search_volume integer, cpc numeric,
        country text, language text, device text, status text) RETURNS text
        LANGUAGE sql STABLE PARALLEL SAFE
        AS $$ SELECT '"keyword_id":' || id
          || ',"keyword":' || COALESCE(to_json(keyword)::text, 'null')
          || ',"difficulty":' || COALESCE(difficulty::text, 'null')
          || ',"search_volume":' || COALESCE(search_volume::text, 'null')
          || ',"cpc":' || json_number(cpc::double precision)
          || ',"country":' || COALESCE(to_json(country)::text, 'null')
          || ',"language":' || COALESCE(to_json(language)::text, 'null')
          || ',"device":' || COALESCE(to_json(device)::text, 'null')
          || ',"status":' || COALESCE(to_json(status)::text, 'null') $$`);
    await q.query(`
      CREATE FUNCTION rank_latest_json(
        checked date, pos integer, prev integer, page text, clicks integer,
        impressions integer, ctr double precision, pack boolean, snippet boolean,
        overview boolean) RETURNS text
        LANGUAGE sql STABLE PARALLEL SAFE
        AS $$ SELECT '"last_checked":' || COALESCE('"' || to_char(checked, 'YYYY-MM-DD') || '"', 'null')
          || ',"current_position":' || COALESCE(pos::text, 'null')
          || ',"previous_position":' || COALESCE(prev::text, 'null')
          || ',"position_change":' || COALESCE((prev - pos)::text, 'null')
          || ',"landing_page":' || COALESCE(to_json(page)::text, 'null')
          || ',"gsc_clicks":' || COALESCE(clicks::text, 'null')
          || ',"gsc_impressions":' || COALESCE(impressions::text, 'null')
          || ',"gsc_ctr":' || json_number(ctr)
          || ',"local_pack":' || COALESCE(pack::text, 'null')
          || ',"featured_snippet":' || COALESCE(snippet::text, 'null')
          || ',"ai_overview":' || COALESCE(overview::text, 'null') $$`);
    await q.query(`
      CREATE FUNCTION tracked_keywords_render_json() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.json_head := rank_keyword_head_json(NEW.id, NEW.keyword, NEW.difficulty,
          NEW.search_volume, NEW.cpc, NEW.country, NEW.language, NEW.device, NEW.status);
        NEW.json_latest := rank_latest_json(NEW.latest_check_date, NEW.latest_position,
          NEW.previous_position, NEW.latest_landing_page, NEW.latest_gsc_clicks,
          NEW.latest_gsc_impressions, NEW.latest_gsc_ctr, NEW.latest_local_pack,
          NEW.latest_featured_snippet, NEW.latest_ai_overview);
        RETURN NEW;
      END $$`);
    await q.query(
      `ALTER TABLE tracked_keywords ADD COLUMN json_head text, ADD COLUMN json_latest text`,
    );
    await q.query(`
      CREATE TRIGGER tracked_keywords_render_json BEFORE INSERT OR UPDATE ON tracked_keywords
        FOR EACH ROW EXECUTE FUNCTION tracked_keywords_render_json()`);
    // Renders every existing row (the trigger overwrites whatever is set).
    await q.query(`UPDATE tracked_keywords SET json_head = ''`);
    await q.query(
      `ALTER TABLE tracked_keywords ALTER COLUMN json_head SET NOT NULL, ALTER COLUMN json_latest SET NOT NULL`,
    );

    // The project's members (project_id, project_domain, project_name).
    await q.query(`
      CREATE FUNCTION rank_projects_render_json() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.json_members := '"project_id":' || NEW.id
          || ',"project_domain":' || COALESCE(to_json(NEW.domain)::text, 'null')
          || ',"project_name":' || COALESCE(to_json(NEW.name)::text, 'null');
        RETURN NEW;
      END $$`);
    await q.query(`ALTER TABLE rank_projects ADD COLUMN json_members text`);
    await q.query(`
      CREATE TRIGGER rank_projects_render_json BEFORE INSERT OR UPDATE ON rank_projects
        FOR EACH ROW EXECUTE FUNCTION rank_projects_render_json()`);
    await q.query(`UPDATE rank_projects SET json_members = ''`);
    await q.query(`ALTER TABLE rank_projects ALTER COLUMN json_members SET NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER rank_projects_render_json ON rank_projects`);
    await q.query(`ALTER TABLE rank_projects DROP COLUMN json_members`);
    await q.query(`DROP FUNCTION rank_projects_render_json()`);
    await q.query(`DROP TRIGGER tracked_keywords_render_json ON tracked_keywords`);
    await q.query(`ALTER TABLE tracked_keywords DROP COLUMN json_head, DROP COLUMN json_latest`);
    await q.query(`DROP FUNCTION tracked_keywords_render_json()`);
    await q.query(`DROP FUNCTION rank_latest_json(date, integer, integer, text, integer, integer,
      double precision, boolean, boolean, boolean)`);
    await q.query(`DROP FUNCTION rank_keyword_head_json(integer, text, integer, integer, numeric,
      text, text, text, text)`);
    await q.query(`DROP FUNCTION json_number(double precision)`);
  }
}
