import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { GENEROUS, YourDataAdmin, get } from './your-data-fixtures';
import {
  RANK_JSON_FUNCTIONS,
  rankJsonFunctionsSql,
} from '../../apps/api/src/rank/rank-keyword-json.sql';
import { trackedKeywordView } from '../../apps/api/src/rank/rank.mapper';
import { TrackedKeywordEntryRow } from '../../apps/api/src/rank/rank.repository';

/**
 * GET /rank/keywords sends JSON rendered by PostgreSQL (the triggers of migration
 * 1764700000000, docs/your-data.md "Rank tracking"). These tests hold that text to what
 * JSON.stringify makes of the spec-shaped entry: byte for byte, for hostile strings (quotes,
 * backslashes, control characters, U+2028, astral characters, markup), nulls, floats and
 * numeric cpc; and that every write path keeps it current (rename, re-posted checks, admin
 * updates, direct SQL).
 */
describe('rank keywords: the JSON rendered in PostgreSQL equals the spec view', () => {
  let t: TestApp;
  let yd: YourDataAdmin;
  let acc: TestAccount;

  const HOSTILE = [
    'quote " and \\ backslash',
    'tab\tnew\nline\rcr\u0008bs\u000cff',
    'ctl \u0001\u001f del \u007f',
    'sep \u2028 \u2029 end',
    'emoji 🚀 astral 𝄞 and é ß 中文',
    '</script><b>&amp;</b>',
    "apostrophe ' and slash /",
  ];

  /** The admin API refuses control characters in a keyword: those are written with SQL below. */
  const printable = (s: string) =>
    [...s].map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? ' ' : c)).join('');

  beforeAll(async () => {
    t = await createTestApp({ now: '2026-06-15T12:00:00Z' });
    const admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
    acc = await admin.account('agency', GENEROUS);
  });
  afterAll(() => t.close());

  /** A keyword's row as the columns hold it (what the pre-rendered JSON is rendered from). */
  async function entryRow(keywordId: number): Promise<TrackedKeywordEntryRow> {
    const [row] = (await t.db.query(
      `SELECT k.id, k.keyword, k.difficulty, k.search_volume, k.cpc, k.country, k.language, k.device,
              k.status, p.id AS project_id, p.domain AS project_domain, p.name AS project_name,
              to_char(k.latest_check_date, 'YYYY-MM-DD') AS latest_check_date, k.latest_position,
              k.previous_position, k.latest_landing_page, k.latest_gsc_clicks,
              k.latest_gsc_impressions, k.latest_gsc_ctr, k.latest_local_pack,
              k.latest_featured_snippet, k.latest_ai_overview
       FROM tracked_keywords k JOIN rank_projects p ON p.id = k.project_id WHERE k.id = $1`,
      [keywordId],
    )) as TrackedKeywordEntryRow[];
    return row;
  }

  /** The spec entry of a keyword: the mapper's view of the database's own columns. */
  async function expected(keywordId: number): Promise<Record<string, unknown>> {
    return trackedKeywordView(await entryRow(keywordId));
  }

  /** The entry's text as PostgreSQL keeps it, joined as the repository joins it. */
  async function renderedText(keywordId: number): Promise<string> {
    const [{ text }] = (await t.db.query(
      `SELECT '{' || k.json_head || ',' || p.json_members || ',' || k.json_latest || '}' AS text
       FROM tracked_keywords k JOIN rank_projects p ON p.id = k.project_id WHERE k.id = $1`,
      [keywordId],
    )) as Array<{ text: string }>;
    return text;
  }

  /** The raw text of each keyword entry in the answer, in order. */
  async function listedTexts(query = 'limit=500'): Promise<{ text: string; parsed: unknown }> {
    const res = await get(t, acc, `/api/v1/rank/keywords?${query}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return { text: res.text, parsed: res.body };
  }

  it('hostile strings, nulls and numbers: byte for byte what JSON.stringify writes', async () => {
    const project = await yd.rankProject(acc.id, 'hostile.example', HOSTILE.join(' | '));
    const ids: number[] = [];
    for (const [i, s] of HOSTILE.entries()) {
      const id = await yd.keyword(project, `kw ${i} ${printable(s)}`, {
        difficulty: i * 10,
        search_volume: i === 0 ? null : 10 ** i,
        cpc: [null, 0, 0.1, 1.25, 12.5, 999999.99, 3][i],
      });
      await yd.checks(id, [
        { check_date: '2026-06-13', position: 40 - i },
        {
          check_date: '2026-06-14',
          position: i === 2 ? null : 1 + i,
          landing_page: `https://hostile.example/${i}?q=${s}`,
          gsc_clicks: i,
          gsc_impressions: 1000 + i,
          gsc_ctr: [0, 7.5, 0.1 + 0.2, 100 / 3, 0.0001, 99.99, null][i],
          local_pack: i % 2 === 0,
          featured_snippet: i === 3 ? null : i % 3 === 0,
        },
      ]);
      ids.push(id);
    }
    // Hostile text the admin API would refuse, written straight to the table.
    await t.db.query(`UPDATE tracked_keywords SET keyword = $2 WHERE id = $1`, [
      ids[1],
      HOSTILE.join(' '),
    ]);
    await t.db.query(`UPDATE tracked_keywords SET latest_landing_page = $2 WHERE id = $1`, [
      ids[2],
      HOSTILE[2] + HOSTILE[3],
    ]);
    await t.db.query(`UPDATE rank_projects SET domain = $2 WHERE id = $1`, [project, HOSTILE[0]]);
    // A keyword never checked: every latest member null.
    ids.push(await yd.keyword(project, 'never checked'));

    const { text, parsed } = await listedTexts();
    // The whole answer is exactly JSON.stringify of what it parses to: every rendered
    // string, number and null is written as JavaScript writes it.
    expect(text).toBe(JSON.stringify(parsed));
    const keywords = (parsed as { data: { keywords: Array<{ keyword_id: number }> } }).data
      .keywords;
    expect(keywords.map((k) => k.keyword_id)).toEqual(ids);
    for (const id of ids) {
      const entry = keywords.find((k) => k.keyword_id === id)!;
      const want = await expected(id);
      expect(entry).toEqual(want);
      expect(JSON.stringify(entry)).toBe(JSON.stringify(want)); // members in the spec's order
      // The database's text of the entry is the mapper's view through JSON.stringify, byte
      // for byte, and the answer carries that text as it is.
      const rendered = await renderedText(id);
      expect(rendered).toBe(JSON.stringify(trackedKeywordView(await entryRow(id))));
      expect(text).toContain(rendered);
    }
  });

  it('the functions the migrations installed are the rank folder’s definition (rank-keyword-json.sql.ts)', async () => {
    const names = RANK_JSON_FUNCTIONS.map((f) => f.name);
    const runner = t.db.createQueryRunner();
    const installed = async (schema: string) =>
      (await runner.query(
        `SELECT p.proname AS name, pg_get_function_arguments(p.oid) AS args,
                format_type(p.prorettype, NULL) AS returns, l.lanname AS language,
                p.provolatile AS volatility, p.proparallel = 's' AS "parallelSafe",
                COALESCE(p.proconfig, '{}') AS config,
                regexp_replace(btrim(p.prosrc, E' \\n'), '\\s+', ' ', 'g') AS body
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           JOIN pg_language l ON l.oid = p.prolang
         WHERE n.nspname = $1 AND p.proname = ANY($2) ORDER BY p.proname`,
        [schema, names],
      )) as Array<Record<string, unknown>>;
    await runner.connect();
    try {
      await runner.startTransaction();
      // The builder's statements, run into a schema of their own (rolled back below).
      await runner.query(`CREATE SCHEMA rank_json_definition`);
      await runner.query(`SET LOCAL search_path TO rank_json_definition, public`);
      for (const statement of rankJsonFunctionsSql()) await runner.query(statement);
      const defined = await installed('rank_json_definition');
      expect(defined.map((f) => f.name)).toEqual([...names].sort());
      const normalized = RANK_JSON_FUNCTIONS.map((f) => ({
        ...f,
        body: f.body.replace(/\s+/g, ' ').trim(),
      })).sort((a, b) => a.name.localeCompare(b.name));
      expect(defined).toEqual(normalized);
      expect(await installed('public')).toEqual(defined);
      // And they write the same text as the installed ones for every stored row (the hostile
      // rows of the test above included).
      const [same] = (await runner.query(
        `SELECT count(*)::int AS rows,
                count(*) FILTER (WHERE k.json_head = rank_json_definition.rank_keyword_head_json(
                  k.id, k.keyword, k.difficulty, k.search_volume, k.cpc, k.country, k.language,
                  k.device, k.status)
                AND k.json_latest = rank_json_definition.rank_latest_json(k.latest_check_date,
                  k.latest_position, k.previous_position, k.latest_landing_page,
                  k.latest_gsc_clicks, k.latest_gsc_impressions, k.latest_gsc_ctr,
                  k.latest_local_pack, k.latest_featured_snippet, k.latest_ai_overview))::int AS same
         FROM tracked_keywords k`,
      )) as Array<{ rows: number; same: number }>;
      expect(same.rows).toBeGreaterThan(0);
      expect(same.same).toBe(same.rows);
    } finally {
      await runner.rollbackTransaction().catch(() => undefined);
      await runner.release();
    }
  });

  it('a CTR below 1e-4 keeps its value (PostgreSQL writes 1e-05, JavaScript 0.00001)', async () => {
    const project = await yd.rankProject(acc.id, 'tiny.example', 'Tiny');
    const id = await yd.keyword(project, 'tiny ctr');
    await yd.checks(id, [{ check_date: '2026-06-14', position: 2, gsc_ctr: 0.00001 }]);
    const res = await get(t, acc, `/api/v1/rank/keywords?project_id=${project}`);
    expect(res.status).toBe(200);
    expect(res.body.data.keywords[0].gsc_ctr).toBe(0.00001);
    expect(res.body.data.keywords[0]).toEqual(await expected(id));
  });

  it('every write path keeps the rendering current: rename, re-post, admin update, SQL', async () => {
    const project = await yd.rankProject(acc.id, 'paths.example', 'Before');
    const id = await yd.keyword(project, 'paths', { difficulty: 5 });
    await yd.checks(id, [{ check_date: '2026-06-12', position: 9 }]);
    const entry = async () => {
      const res = await get(t, acc, `/api/v1/rank/keywords?project_id=${project}`);
      expect(res.status).toBe(200);
      return res.body.data.keywords[0] as Record<string, unknown>;
    };
    expect(await entry()).toMatchObject({ project_name: 'Before', current_position: 9 });
    // The project upsert renames it.
    await yd.rankProject(acc.id, 'paths.example', 'After');
    // The keyword upsert changes its metrics.
    await yd.keyword(project, 'paths', { difficulty: 77, cpc: 2.5 });
    // A newer check, then a re-post of it.
    await yd.checks(id, [{ check_date: '2026-06-14', position: 4 }]);
    await yd.checks(id, [{ check_date: '2026-06-14', position: 2, landing_page: 'https://p/x' }]);
    await t.db.query(`UPDATE tracked_keywords SET status = 'paused' WHERE id = $1`, [id]);
    const now = await entry();
    expect(now).toEqual(await expected(id));
    expect(now).toMatchObject({
      project_name: 'After',
      difficulty: 77,
      cpc: 2.5,
      status: 'paused',
      last_checked: '2026-06-14',
      current_position: 2,
      previous_position: 9,
      position_change: 7,
      landing_page: 'https://p/x',
    });
  });
});
