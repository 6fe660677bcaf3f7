import { Injectable } from '@nestjs/common';
import {
  RankChecksRepository,
  RankProjectEntity,
  ReadSql,
  SERP_FEATURES,
  SerpFeature,
  Sql,
  TrackedKeywordEntity,
  upserted,
} from '@app/database';
import { CreateRankProjectDto, CreateTrackedKeywordDto, RankCheckDto } from './rank-ingestion.dto';

/** A check of GET /rank/history with the position of the check before it. */
export type CheckRow = {
  check_date: string;
  position: number | null;
  previous_position: number | null;
  landing_page: string | null;
  gsc_clicks: number | null;
  gsc_impressions: number | null;
  gsc_ctr: number | null;
  gsc_average_position: number | null;
} & Record<SerpFeature, boolean>;

/**
 * A tracked keyword with its project and stored latest check, as the columns hold them: what
 * the pre-rendered JSON of a GET /rank/keywords entry is rendered from (rank-keyword-json.sql.ts).
 */
export interface TrackedKeywordEntryRow {
  id: number;
  keyword: string;
  difficulty: number | null;
  search_volume: number | null;
  /** numeric: the driver's text */
  cpc: string | number | null;
  country: string;
  language: string;
  device: string;
  status: string;
  project_id: number;
  project_domain: string;
  project_name: string;
  /** YYYY-MM-DD */
  latest_check_date: string | null;
  latest_position: number | null;
  previous_position: number | null;
  latest_landing_page: string | null;
  latest_gsc_clicks: number | null;
  latest_gsc_impressions: number | null;
  latest_gsc_ctr: number | null;
  latest_local_pack: boolean | null;
  latest_featured_snippet: boolean | null;
  latest_ai_overview: boolean | null;
}

/** A page of GET /rank/keywords entries (JSON texts) and the rank version it was read at. */
export interface KeywordPage {
  entries: string[];
  /** The keywords matching (the account's, or the project's), all pages: read with the page. */
  total: number;
  /** null: not to be kept (see `RankRepository.keywordPage`). */
  version: string | null;
}

/** A row of the page statement of `RankRepository.keywordPage`. */
type KeywordPageRow = [number, string, string, string | null, string, number];

/** `keywordPage`'s answer when the kept page is still current. */
export const UNCHANGED = Symbol('unchanged');

/** The account's rank version ($1), 0 before its first write (migration 1765100000000). */
const RANK_VERSION_SQL = `COALESCE((SELECT v.version FROM rank_versions v WHERE v.account_id = $1), 0)::text`;

/**
 * The number of the account's ($1) keywords, or of its project's ($2) when `byProject`: an
 * index-only count on tracked_keywords_account_idx (~5,000 entries for an agency account).
 */
const keywordTotalSql = (byProject: boolean) =>
  `(SELECT count(*) FROM tracked_keywords t
    WHERE t.account_id = $1 AND ${byProject ? 't.project_id = $2::int' : '$2::int IS NULL'})::int`;

export interface KeywordHeadRow {
  id: number;
  keyword: string;
  project_id: number;
  domain: string;
  project: string;
}

/** What a project upsert answers. */
export type RankProjectRow = Pick<
  RankProjectEntity,
  'id' | 'accountId' | 'domain' | 'name' | 'tracking'
>;

/** What a keyword upsert answers. */
export type TrackedKeywordRow = Pick<
  TrackedKeywordEntity,
  | 'id'
  | 'projectId'
  | 'keyword'
  | 'country'
  | 'language'
  | 'device'
  | 'status'
  | 'difficulty'
  | 'searchVolume'
  | 'cpc'
>;

/**
 * Rank tracking: the reads of /rank/keywords and /rank/history (ownership is part of every
 * statement; on the read standby when one is in use, `ReadSql`) and the writes of the admin
 * ingestion (upserts on the natural keys, on the primary).
 */
@Injectable()
export class RankRepository {
  constructor(
    private readonly sql: Sql,
    private readonly reads: ReadSql,
    private readonly checks: RankChecksRepository,
  ) {}

  projectOwned(accountId: number, projectId: number): Promise<boolean> {
    return this.reads.read((sql) =>
      sql.repository(RankProjectEntity).existsBy({ id: projectId, accountId }),
    );
  }

  /**
   * The account's keywords (optionally of one project) ordered by project id, then keyword
   * id, each as the JSON text of its GET /rank/keywords entry, with its latest check on or
   * before `today` and the check before that. The keyword row keeps its newest check
   * (`latest_*`, maintained by storeChecks) and the JSON texts of its members (`json_head`,
   * `json_latest`), the project those of its own (`json_members`), all rendered by the
   * triggers of migration 1764700000000. Only rows whose stored latest lies after `today`
   * (checks posted ahead) need their latest looked up (`latestJsonBefore`): a second
   * statement, run only when the page holds such a row.
   *
   * `kept`: the account's rank version of a page the caller holds (migration
   * 1765100000000). When it is still the current one, the answer is `UNCHANGED` after one
   * primary-key read. Otherwise the page comes with the version it was read at, or a null
   * version when it must not be kept (no keyword, or a check after today: such an entry
   * depends on rank_checks rows, which do not bump the version). The version is read before
   * or with the page, on the same database, so a label is never newer than its page.
   *
   * `offset`: keywords skipped in that order (paging, an extension of the spec). `total`, the
   * keywords matching across all pages, is read in the page's statement (same snapshot as
   * the page and its version; keywords are only added or removed by writes that bump the
   * version, so it may be kept with the page). A page past the end has no row to carry it:
   * then a second statement reads it, and the page is not kept.
   */
  keywordPage(
    accountId: number,
    projectId: number | null,
    limit: number,
    offset: number,
    today: string,
    kept: string | null,
  ): Promise<KeywordPage | typeof UNCHANGED> {
    return this.reads.read(async (sql) => {
      if (kept !== null && (await this.rankVersion(sql, accountId)) === kept) return UNCHANGED;
      const rows = await this.keywordPageRows(sql, accountId, projectId, limit, offset, today);
      if (rows.length === 0) {
        // Nothing on this page (no keyword, or past the end): the total alone, not kept.
        const total = offset === 0 ? 0 : await this.keywordTotal(sql, accountId, projectId);
        return { entries: [], total, version: null };
      }
      return this.renderKeywordPage(sql, accountId, rows, today);
    });
  }

  /**
   * The rows of a page (see `keywordPage`): id, json_head, json_members, json_latest (null
   * when after `today`), the rank version and the total.
   */
  private keywordPageRows(
    sql: Sql,
    accountId: number,
    projectId: number | null,
    limit: number,
    offset: number,
    today: string,
  ): Promise<KeywordPageRow[]> {
    // A named prepared statement (parsed and planned once per connection; measured in
    // docs/performance.md "Your-data at agency scale"), one per shape so that each keeps
    // its own plan: with project_id the range scan starts at the project.
    const byProject = projectId !== null;
    return sql.preparedArrays<KeywordPageRow>(
      byProject ? 'rank_keywords_page_project' : 'rank_keywords_page_account',
      // The page of keywords first: an ordered range scan of tracked_keywords_account_idx
      // that stops after $3 rows (a join inside would make the planner misjudge the row count
      // and sort every keyword of the account). json_latest is null when it is after $4.
      `SELECT k.id, k.json_head, p.json_members,
              CASE WHEN k.latest_check_date > $4::date THEN NULL ELSE k.json_latest END,
              ${RANK_VERSION_SQL}, ${keywordTotalSql(byProject)}
       FROM (
         SELECT k.id, k.account_id, k.project_id, k.latest_check_date, k.json_head, k.json_latest
         FROM tracked_keywords k
         WHERE k.account_id = $1 AND ${byProject ? 'k.project_id = $2::int' : '$2::int IS NULL'}
         ORDER BY k.project_id, k.id
         LIMIT $3 OFFSET $5
       ) k
       JOIN rank_projects p ON p.id = k.project_id AND p.account_id = k.account_id
       ORDER BY k.project_id, k.id`,
      [accountId, projectId, limit, today, offset],
    );
  }

  /** The page's entries, the latest of rows with checks after `today` looked up (`keywordPage`). */
  private async renderKeywordPage(
    sql: Sql,
    accountId: number,
    rows: KeywordPageRow[],
    today: string,
  ): Promise<KeywordPage> {
    const ahead = rows.filter((r) => r[3] === null).map((r) => r[0]);
    const looked = ahead.length ? await this.latestJsonBefore(sql, accountId, ahead, today) : null;
    const entries: string[] = [];
    for (const [id, head, project, latest] of rows) {
      const checked = latest ?? looked?.get(id);
      // A keyword deleted between the two statements is left out.
      if (checked !== undefined) entries.push(`{${head},${project},${checked}}`);
    }
    return { entries, total: rows[0][5], version: looked ? null : rows[0][4] };
  }

  /** The number of keywords matching (see `keywordPage`). */
  private async keywordTotal(
    sql: Sql,
    accountId: number,
    projectId: number | null,
  ): Promise<number> {
    const byProject = projectId !== null;
    const [[total]] = await sql.preparedArrays<[number]>(
      byProject ? 'rank_keywords_total_project' : 'rank_keywords_total_account',
      `SELECT ${keywordTotalSql(byProject)}`,
      [accountId, projectId],
    );
    return total;
  }

  /** The account's rank version (0 until its keywords or projects are first written). */
  private async rankVersion(sql: Sql, accountId: number): Promise<string> {
    const [[version]] = await sql.preparedArrays<[string]>(
      'rank_version',
      `SELECT ${RANK_VERSION_SQL}`,
      [accountId],
    );
    return version;
  }

  /**
   * The `json_latest` text of keywords as of `today`: their latest check on or before it and
   * the check before that (all null when there is none), rendered by the trigger's function.
   */
  private async latestJsonBefore(
    sql: Sql,
    accountId: number,
    keywordIds: number[],
    today: string,
  ): Promise<Map<number, string>> {
    const rows = await sql.rows<{ id: number; json: string }>(
      `SELECT k.id, rank_latest_json(f.check_date, f.position, f.previous_position, f.landing_page,
              f.gsc_clicks, f.gsc_impressions, f.gsc_ctr, f.local_pack, f.featured_snippet,
              f.ai_overview) AS json
       FROM tracked_keywords k
       LEFT JOIN LATERAL (
         SELECT c.check_date, c.position, c.landing_page, c.gsc_clicks, c.gsc_impressions, c.gsc_ctr,
                c.local_pack, c.featured_snippet, c.ai_overview,
                (SELECT c2.position FROM rank_checks c2
                 WHERE c2.keyword_id = k.id AND c2.check_date < c.check_date
                 ORDER BY c2.check_date DESC LIMIT 1) AS previous_position
         FROM rank_checks c
         WHERE c.keyword_id = k.id AND c.check_date <= $3::date
         ORDER BY c.check_date DESC LIMIT 1
       ) f ON true
       WHERE k.account_id = $1 AND k.id = ANY($2::int[])`,
      [accountId, keywordIds, today],
    );
    return new Map(rows.map((r) => [r.id, r.json]));
  }

  async keywordHead(accountId: number, keywordId: number): Promise<KeywordHeadRow | null> {
    const row = await this.reads.read((sql) =>
      sql.one<KeywordHeadRow>(
        `SELECT k.id, k.keyword, p.id AS project_id, p.domain, p.name AS project
         FROM tracked_keywords k JOIN rank_projects p ON p.id = k.project_id
         WHERE k.id = $1 AND k.account_id = $2`,
        [keywordId, accountId],
      ),
    );
    return row ?? null;
  }

  /**
   * Checks in [from, today], newest first; previous_position is the check before each one
   * (also when that check lies before the window).
   */
  history(accountId: number, keywordId: number, from: string, today: string): Promise<CheckRow[]> {
    return this.reads.read((sql) =>
      sql.rows<CheckRow>(
        `SELECT to_char(h.check_date, 'YYYY-MM-DD') AS check_date, h.position, h.previous_position,
              h.landing_page, h.gsc_clicks, h.gsc_impressions, h.gsc_ctr, h.gsc_average_position,
              ${SERP_FEATURES.map((f) => `h.${f}`).join(', ')}
       FROM (
         SELECT c.*, lag(c.position) OVER (ORDER BY c.check_date) AS previous_position
         FROM rank_checks c
         WHERE c.keyword_id = $1 AND c.account_id = $2 AND c.check_date <= $4::date
       ) h
       WHERE h.check_date >= $3::date
       ORDER BY h.check_date DESC`,
        [keywordId, accountId, from, today],
      ),
    );
  }

  /**
   * Creates the project, or renames the account's project of the same domain. `tracking`:
   * false on a new project unless the body says true; kept on an update unless given.
   * null: no such account.
   */
  async upsertProject(accountId: number, p: CreateRankProjectDto, now: Date) {
    return upserted(
      await this.sql.one<RankProjectRow & { created: boolean }>(
        `INSERT INTO rank_projects (account_id, domain, name, tracking, created_at, updated_at)
           SELECT a.id, $2, $3, COALESCE($5::boolean, false), $4, $4 FROM accounts a WHERE a.id = $1
           ON CONFLICT ON CONSTRAINT rank_projects_natural_key
             DO UPDATE SET name = EXCLUDED.name, updated_at = EXCLUDED.updated_at,
               tracking = COALESCE($5::boolean, rank_projects.tracking)
           RETURNING id, account_id AS "accountId", domain, name, tracking, (xmax = 0) AS created`,
        [accountId, p.domain, p.name, now, p.tracking ?? null],
      ),
    );
  }

  /**
   * Creates the keyword, or replaces status/difficulty/volume/cpc of the project's keyword with
   * the same (keyword, country, language, device). null: no such project.
   */
  async upsertKeyword(projectId: number, k: CreateTrackedKeywordDto, now: Date) {
    return upserted(
      await this.sql.one<TrackedKeywordRow & { created: boolean }>(
        `INSERT INTO tracked_keywords
           (account_id, project_id, keyword, country, language, device, status, difficulty, search_volume, cpc,
            created_at, updated_at)
         SELECT p.account_id, p.id, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10 FROM rank_projects p WHERE p.id = $1
         ON CONFLICT ON CONSTRAINT tracked_keywords_natural_key DO UPDATE SET
           status = EXCLUDED.status, difficulty = EXCLUDED.difficulty, search_volume = EXCLUDED.search_volume,
           cpc = EXCLUDED.cpc, updated_at = EXCLUDED.updated_at
         RETURNING id, project_id AS "projectId", keyword, country, language, device, status, difficulty,
                   search_volume AS "searchVolume", cpc, (xmax = 0) AS created`,
        [
          projectId,
          k.keyword,
          k.country.toUpperCase(),
          k.language,
          k.device,
          k.status ?? 'active',
          k.difficulty ?? null,
          k.search_volume ?? null,
          k.cpc ?? null,
          now,
        ],
      ),
    );
  }

  /**
   * Stores a batch of checks in one transaction (the shared write path, RankChecksRepository
   * of libs/database, also used by the worker's rank collection): one row per (keyword,
   * check_date), a re-posted date replaces the stored one; within a batch the last entry of
   * a date wins. Returns the number of checks stored, or null when the keyword does not exist.
   */
  storeChecks(keywordId: number, checks: RankCheckDto[], now: Date): Promise<number | null> {
    return this.checks.storeChecks(keywordId, checks, now);
  }
}
