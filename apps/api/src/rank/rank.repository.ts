import { Injectable } from '@nestjs/common';
import {
  RankChecksRepository,
  RankProjectEntity,
  ReadSql,
  SERP_FEATURES,
  SerpFeature,
  Sql,
  SqlScope,
  SqlTx,
  TrackedKeywordEntity,
  Upserted,
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
    const { entries, lookedUp } = await this.renderEntries(sql, accountId, rows, today);
    return {
      entries: entries.map(([, json]) => json),
      total: rows[0][5],
      version: lookedUp ? null : rows[0][4],
    };
  }

  /**
   * The GET /rank/keywords entry of each row (id, json_head, json_members, json_latest or
   * null when after `today`), in the rows' order; `lookedUp` when a row's latest had to be
   * looked up (`latestJsonBefore`).
   */
  private async renderEntries(
    sql: Sql,
    accountId: number,
    rows: Array<[number, string, string, string | null, ...unknown[]]>,
    today: string,
  ): Promise<{ entries: Array<[number, string]>; lookedUp: boolean }> {
    const ahead = rows.filter((r) => r[3] === null).map((r) => r[0]);
    const looked = ahead.length ? await this.latestJsonBefore(sql, accountId, ahead, today) : null;
    const entries: Array<[number, string]> = [];
    for (const [id, head, project, latest] of rows) {
      const checked = latest ?? looked?.get(id);
      // A keyword deleted between the two statements is left out.
      if (checked !== undefined) entries.push([id, `{${head},${project},${checked}}`]);
    }
    return { entries, lookedUp: looked !== null };
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

  // ---- Management (docs/rank-management.md): the account's own writes, ownership in every statement.

  /** The account's projects with their keyword counts, oldest first. */
  listProjects(accountId: number): Promise<ProjectViewRow[]> {
    return this.sql.rows<ProjectViewRow>(
      `${PROJECT_VIEW_SQL} WHERE p.account_id = $1 ORDER BY p.id`,
      [accountId],
    );
  }

  /** One project of the account, or null (missing or another account's). */
  async project(accountId: number, projectId: number): Promise<ProjectViewRow | null> {
    return (
      (await this.sql.one<ProjectViewRow>(
        `${PROJECT_VIEW_SQL} WHERE p.account_id = $1 AND p.id = $2`,
        [accountId, projectId],
      )) ?? null
    );
  }

  /**
   * Creates the account's project of a (normalised) domain, or answers the one it already
   * has, unchanged: `created` tells which. Two concurrent creates of one domain answer the
   * same record (the loser of the insert reads the winner's row).
   */
  async createProject(
    accountId: number,
    p: { domain: string; name: string; match: string; tracking: boolean },
    now: Date,
  ): Promise<Upserted<ProjectViewRow>> {
    const inserted = await this.sql.one<{ id: number }>(
      `INSERT INTO rank_projects (account_id, domain, name, match, tracking, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT ON CONSTRAINT rank_projects_natural_key DO NOTHING
       RETURNING id`,
      [accountId, p.domain, p.name, p.match, p.tracking, now],
    );
    const row = await this.sql.one<ProjectViewRow>(
      `${PROJECT_VIEW_SQL} WHERE p.account_id = $1 AND p.domain = $2`,
      [accountId, p.domain],
    );
    // The row exists either way: inserted here, or the conflicting one (committed).
    return { row: row!, created: inserted !== undefined };
  }

  /** Sets the given members of the account's project; null when it is not the account's. */
  async updateProject(
    accountId: number,
    projectId: number,
    p: { name?: string; match?: string; tracking?: boolean },
    now: Date,
  ): Promise<ProjectViewRow | null> {
    const updated = await this.sql.one<{ id: number }>(
      `UPDATE rank_projects SET name = COALESCE($3, name), match = COALESCE($4, match),
         tracking = COALESCE($5::boolean, tracking), updated_at = $6
       WHERE id = $2 AND account_id = $1 RETURNING id`,
      [accountId, projectId, p.name ?? null, p.match ?? null, p.tracking ?? null, now],
    );
    return updated ? this.project(accountId, projectId) : null;
  }

  /**
   * Deletes the account's project, its keywords and their history and tasks (the foreign
   * keys cascade; the rank version is bumped by the triggers of migration 1765100000000, so
   * kept GET /rank/keywords pages are dropped on every instance). A bulk transaction: a
   * project's history may hold millions of checks. null: not the account's project.
   */
  deleteProject(accountId: number, projectId: number): Promise<{ keywordsDeleted: number } | null> {
    return this.sql.bulkTransaction(async (tx) => {
      if ((await tx.lockAccountRow(RankProjectEntity, projectId)) !== accountId) return null;
      const [{ n }] = await tx.rows<{ n: number }>(
        `SELECT count(*)::int AS n FROM tracked_keywords WHERE account_id = $1 AND project_id = $2`,
        [accountId, projectId],
      );
      await tx.run(`DELETE FROM rank_projects WHERE id = $2 AND account_id = $1`, [
        accountId,
        projectId,
      ]);
      return { keywordsDeleted: n };
    });
  }

  /**
   * Adds a batch of keywords to the account's project, all or nothing, exactly within the
   * account's `limit` of tracked keywords also under concurrency: the batch holds the
   * account's tracked-keywords lock (a transaction advisory lock) while it counts and
   * inserts, so two batches of one account never pass the limit together. Items already in
   * the project (same keyword compared case-insensitively, country, language, device) are
   * answered as already tracked and not counted again. New keywords are `pending`.
   */
  addKeywords(
    accountId: number,
    projectId: number,
    items: KeywordItem[],
    limit: number,
    now: Date,
  ): Promise<AddKeywordsResult> {
    return this.sql.transaction(async (tx) => {
      await tx.run(`SELECT pg_advisory_xact_lock($1, $2)`, [TRACKED_KEYWORDS_LOCK, accountId]);
      if ((await tx.lockAccountRow(RankProjectEntity, projectId)) !== accountId)
        return { kind: 'missing' };
      const tracked = await this.trackedIds(tx, projectId);
      const fresh = items.filter((i) => !tracked.has(keywordKey(i)));
      const used = await this.trackedKeywordsUsed(accountId, tx);
      if (used + fresh.length > limit)
        return { kind: 'over', used, limit, requested: fresh.length };
      if (fresh.length) {
        await tx.run(
          `INSERT INTO tracked_keywords
             (account_id, project_id, keyword, country, language, device, status, created_at, updated_at)
           SELECT $1, $2, i.keyword, i.country, i.language, i.device, 'pending', $3, $3
           FROM unnest($4::text[], $5::text[], $6::text[], $7::text[]) AS i(keyword, country, language, device)`,
          [
            accountId,
            projectId,
            now,
            fresh.map((i) => i.keyword),
            fresh.map((i) => i.country),
            fresh.map((i) => i.language),
            fresh.map((i) => i.device),
          ],
        );
      }
      const ids = await this.trackedIds(tx, projectId);
      return {
        kind: 'added',
        added: fresh.map((i) => ids.get(keywordKey(i))!),
        alreadyTracked: items
          .filter((i) => tracked.has(keywordKey(i)))
          .map((i) => tracked.get(keywordKey(i))!),
        used: used + fresh.length,
      };
    });
  }

  /**
   * The ids of the project's keywords by `keywordKey` (the oldest of keys that differ only in
   * case). Compared here, not with SQL lower(): the database's ctype may not lower-case
   * every letter the way JavaScript does. A project holds at most the account's limit.
   */
  private async trackedIds(tx: SqlTx, projectId: number): Promise<Map<string, number>> {
    const rows = await tx.rows<KeywordItem & { id: number }>(
      `SELECT k.id, k.keyword, k.country, k.language, k.device FROM tracked_keywords k
       WHERE k.project_id = $1 ORDER BY k.id`,
      [projectId],
    );
    const ids = new Map<string, number>();
    for (const r of rows) if (!ids.has(keywordKey(r))) ids.set(keywordKey(r), r.id);
    return ids;
  }

  /** The keywords the account tracks, all projects (what the `tracked_keywords` limit counts). */
  async trackedKeywordsUsed(accountId: number, scope: SqlScope = this.sql): Promise<number> {
    const [{ n }] = await scope.rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM tracked_keywords WHERE account_id = $1`,
      [accountId],
    );
    return n;
  }

  /**
   * Sets a keyword's status (`active` or `paused`); a keyword never checked that is resumed
   * is `pending` again. false: not the account's keyword.
   */
  async setKeywordStatus(
    accountId: number,
    keywordId: number,
    status: 'active' | 'paused',
    now: Date,
  ): Promise<boolean> {
    const row = await this.sql.one<{ id: number }>(
      `UPDATE tracked_keywords SET updated_at = $4,
         status = CASE WHEN $3 = 'active' AND latest_check_date IS NULL THEN 'pending' ELSE $3 END
       WHERE id = $2 AND account_id = $1 RETURNING id`,
      [accountId, keywordId, status, now],
    );
    return row !== undefined;
  }

  /** Deletes the account's keyword and its history (cascade). false: not the account's. */
  async deleteKeyword(accountId: number, keywordId: number): Promise<boolean> {
    const row = await this.sql.one<{ id: number }>(
      `DELETE FROM tracked_keywords WHERE id = $2 AND account_id = $1 RETURNING id`,
      [accountId, keywordId],
    );
    return row !== undefined;
  }

  /**
   * The GET /rank/keywords entries (JSON texts) of the account's keywords `ids`, read on the
   * primary right after a write, by id (a missing id is left out).
   */
  async keywordEntries(
    accountId: number,
    ids: number[],
    today: string,
  ): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await this.sql.rows<{
      id: number;
      head: string;
      members: string;
      latest: string | null;
    }>(
      `SELECT k.id, k.json_head AS head, p.json_members AS members,
              CASE WHEN k.latest_check_date > $3::date THEN NULL ELSE k.json_latest END AS latest
       FROM tracked_keywords k JOIN rank_projects p ON p.id = k.project_id AND p.account_id = k.account_id
       WHERE k.account_id = $1 AND k.id = ANY($2::int[])`,
      [accountId, ids, today],
    );
    const { entries } = await this.renderEntries(
      this.sql,
      accountId,
      rows.map((r) => [r.id, r.head, r.members, r.latest]),
      today,
    );
    return new Map(entries);
  }
}

/** The advisory-lock namespace of an account's tracked-keyword batches (the key's second half is the account id). */
const TRACKED_KEYWORDS_LOCK = 1_765_400;

/** A keyword item of a batch, normalised (trimmed and collapsed keyword, upper-case country). */
export interface KeywordItem {
  keyword: string;
  country: string;
  language: string;
  device: string;
}

/** The identity of a tracked keyword in its project: keyword case-insensitively, market, device. */
export function keywordKey(i: KeywordItem): string {
  return JSON.stringify([i.keyword.toLowerCase(), i.country, i.language, i.device]);
}

export type AddKeywordsResult =
  | { kind: 'missing' }
  | { kind: 'over'; used: number; limit: number; requested: number }
  | { kind: 'added'; added: number[]; alreadyTracked: number[]; used: number };

/** A project as the management routes answer it (before timestamps are formatted). */
export interface ProjectViewRow {
  project_id: number;
  domain: string;
  name: string;
  match: string;
  tracking: boolean;
  keywords_count: number;
  created_at: Date;
  updated_at: Date;
}

const PROJECT_VIEW_SQL = `SELECT p.id AS project_id, p.domain, p.name, p.match, p.tracking,
    (SELECT count(*) FROM tracked_keywords k WHERE k.account_id = p.account_id AND k.project_id = p.id)::int
      AS keywords_count,
    p.created_at, p.updated_at
  FROM rank_projects p`;
