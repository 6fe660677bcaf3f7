/**
 * The rendering definition of a GET /rank/keywords entry in PostgreSQL: the SQL functions
 * that pre-render a tracked keyword's members as JSON text (docs/your-data.md "Rank
 * tracking"), generated from one list of the entry's members in answer order. The entry's
 * shape is `trackedKeywordView` in rank.mapper.ts; this file says how PostgreSQL writes the
 * same bytes.
 *
 * Binding. Migration 1764700000000-rank-keyword-json.ts installed these functions with
 * their text written out, and keeps it: a migration is frozen once applied, and libs never
 * import apps, so it cannot call this builder. What binds the two is
 * test/your-data/rank-json.e2e-spec.ts: it fails unless the functions installed by the
 * migrations are, member for member, the ones `RANK_JSON_FUNCTIONS` describes
 * (pg_proc: arguments, result, language, volatility, settings and whitespace-normalized
 * body), and unless the database's text of every entry is byte for byte
 * `JSON.stringify(trackedKeywordView(row))` on hostile values.
 *
 * Changing the entry: edit the member list here and `trackedKeywordView` (the unit test
 * holds their member order to each other and to the schema), then add a new migration
 * whose text is `rankJsonFunctionsSql()` as of that day pasted in verbatim (CREATE OR
 * REPLACE; re-render the rows with `UPDATE tracked_keywords SET json_head = ''` and
 * `UPDATE rank_projects SET json_members = ''`). Never edit an applied migration, and never
 * make a migration import this file: its meaning would change with this file.
 */

/** How a member's SQL value becomes JSON text (each as `JSON.stringify` writes it). */
type JsonKind =
  | 'id' // never null: the integer's text
  | 'scalar' // integer or boolean: its text, or null
  | 'string' // to_json: the same escapes as JSON.stringify
  | 'float' // shortest round-trip text; null for null, NaN and ±Infinity (json_number)
  | 'date'; // "YYYY-MM-DD" or null

interface Member {
  /** The member's name in the answer. */
  member: string;
  /** Its SQL value, over the rendering function's parameters (or NEW in a trigger). */
  sql: string;
  kind: JsonKind;
}

/** One SQL value rendered as JSON text. */
function jsonValue({ sql, kind }: Member): string {
  switch (kind) {
    case 'id':
      return sql;
    case 'scalar':
      return `COALESCE(${sql}::text, 'null')`;
    case 'string':
      return `COALESCE(to_json(${sql})::text, 'null')`;
    case 'float':
      return `json_number(${sql})`;
    case 'date':
      return `COALESCE('"' || to_char(${sql}, 'YYYY-MM-DD') || '"', 'null')`;
  }
}

/** `"a":…,"b":…` of the members, as one SQL text expression. */
function membersJson(members: readonly Member[]): string {
  return members
    .map((m, i) => `'${i === 0 ? '' : ','}"${m.member}":' || ${jsonValue(m)}`)
    .join('\n  || ');
}

/** keyword_id … status: rank_keyword_head_json, stored in tracked_keywords.json_head. */
const HEAD: readonly Member[] = [
  { member: 'keyword_id', sql: 'id', kind: 'id' },
  { member: 'keyword', sql: 'keyword', kind: 'string' },
  { member: 'difficulty', sql: 'difficulty', kind: 'scalar' },
  { member: 'search_volume', sql: 'search_volume', kind: 'scalar' },
  // numeric through double precision, as the view's Number()
  { member: 'cpc', sql: 'cpc::double precision', kind: 'float' },
  { member: 'country', sql: 'country', kind: 'string' },
  { member: 'language', sql: 'language', kind: 'string' },
  { member: 'device', sql: 'device', kind: 'string' },
  { member: 'status', sql: 'status', kind: 'string' },
];

/** project_id … project_name: the trigger of rank_projects, stored in json_members. */
const PROJECT: readonly Member[] = [
  { member: 'project_id', sql: 'NEW.id', kind: 'id' },
  { member: 'project_domain', sql: 'NEW.domain', kind: 'string' },
  { member: 'project_name', sql: 'NEW.name', kind: 'string' },
];

/** last_checked … ai_overview: rank_latest_json, stored in tracked_keywords.json_latest. */
const LATEST: readonly Member[] = [
  { member: 'last_checked', sql: 'checked', kind: 'date' },
  { member: 'current_position', sql: 'pos', kind: 'scalar' },
  { member: 'previous_position', sql: 'prev', kind: 'scalar' },
  { member: 'position_change', sql: '(prev - pos)', kind: 'scalar' },
  { member: 'landing_page', sql: 'page', kind: 'string' },
  { member: 'gsc_clicks', sql: 'clicks', kind: 'scalar' },
  { member: 'gsc_impressions', sql: 'impressions', kind: 'scalar' },
  { member: 'gsc_ctr', sql: 'ctr', kind: 'float' },
  { member: 'local_pack', sql: 'pack', kind: 'scalar' },
  { member: 'featured_snippet', sql: 'snippet', kind: 'scalar' },
  { member: 'ai_overview', sql: 'overview', kind: 'scalar' },
];

/** The members of a tracked-keyword entry in answer order: `{head,project,latest}`. */
export const TRACKED_KEYWORD_MEMBERS: readonly string[] = [...HEAD, ...PROJECT, ...LATEST].map(
  (m) => m.member,
);

/** A parameter of a rendering function and the tracked_keywords column the trigger passes. */
interface Param {
  name: string;
  type: string;
  column: string;
}

const HEAD_PARAMS: readonly Param[] = [
  { name: 'id', type: 'integer', column: 'id' },
  { name: 'keyword', type: 'text', column: 'keyword' },
  { name: 'difficulty', type: 'integer', column: 'difficulty' },
  { name: 'search_volume', type: 'integer', column: 'search_volume' },
  { name: 'cpc', type: 'numeric', column: 'cpc' },
  { name: 'country', type: 'text', column: 'country' },
  { name: 'language', type: 'text', column: 'language' },
  { name: 'device', type: 'text', column: 'device' },
  { name: 'status', type: 'text', column: 'status' },
];

const LATEST_PARAMS: readonly Param[] = [
  { name: 'checked', type: 'date', column: 'latest_check_date' },
  { name: 'pos', type: 'integer', column: 'latest_position' },
  { name: 'prev', type: 'integer', column: 'previous_position' },
  { name: 'page', type: 'text', column: 'latest_landing_page' },
  { name: 'clicks', type: 'integer', column: 'latest_gsc_clicks' },
  { name: 'impressions', type: 'integer', column: 'latest_gsc_impressions' },
  { name: 'ctr', type: 'double precision', column: 'latest_gsc_ctr' },
  { name: 'pack', type: 'boolean', column: 'latest_local_pack' },
  { name: 'snippet', type: 'boolean', column: 'latest_featured_snippet' },
  { name: 'overview', type: 'boolean', column: 'latest_ai_overview' },
];

/** One function as PostgreSQL keeps it (pg_proc), enough to write its CREATE statement. */
interface RankJsonFunction {
  name: string;
  /** As pg_get_function_arguments writes them. */
  args: string;
  returns: 'text' | 'trigger';
  language: 'sql' | 'plpgsql';
  /** pg_proc.provolatile: i(mmutable), s(table), v(olatile). */
  volatility: 'i' | 's' | 'v';
  parallelSafe: boolean;
  /** pg_proc.proconfig, e.g. `extra_float_digits=1`. */
  config: string[];
  body: string;
}

const argList = (params: readonly Param[]) => params.map((p) => `${p.name} ${p.type}`).join(', ');
const callWith = (fn: string, params: readonly Param[]) =>
  `${fn}(${params.map((p) => `NEW.${p.column}`).join(', ')})`;

/** The functions the pre-rendered answer needs, in the order they are created. */
export const RANK_JSON_FUNCTIONS: readonly RankJsonFunction[] = [
  {
    // extra_float_digits = 1 (PostgreSQL's default): the shortest text that reads back as
    // the same double, whatever the session asks for.
    name: 'json_number',
    args: 'v double precision',
    returns: 'text',
    language: 'sql',
    volatility: 'i',
    parallelSafe: true,
    config: ['extra_float_digits=1'],
    body: `SELECT CASE WHEN v IS NULL OR v IN ('NaN', 'Infinity', '-Infinity') THEN 'null'
  ELSE v::text END`,
  },
  {
    name: 'rank_keyword_head_json',
    args: argList(HEAD_PARAMS),
    returns: 'text',
    language: 'sql',
    volatility: 's',
    parallelSafe: true,
    config: [],
    body: `SELECT ${membersJson(HEAD)}`,
  },
  {
    name: 'rank_latest_json',
    args: argList(LATEST_PARAMS),
    returns: 'text',
    language: 'sql',
    volatility: 's',
    parallelSafe: true,
    config: [],
    body: `SELECT ${membersJson(LATEST)}`,
  },
  {
    name: 'tracked_keywords_render_json',
    args: '',
    returns: 'trigger',
    language: 'plpgsql',
    volatility: 'v',
    parallelSafe: false,
    config: [],
    body: `BEGIN
  NEW.json_head := ${callWith('rank_keyword_head_json', HEAD_PARAMS)};
  NEW.json_latest := ${callWith('rank_latest_json', LATEST_PARAMS)};
  RETURN NEW;
END`,
  },
  {
    name: 'rank_projects_render_json',
    args: '',
    returns: 'trigger',
    language: 'plpgsql',
    volatility: 'v',
    parallelSafe: false,
    config: [],
    body: `BEGIN
  NEW.json_members := ${membersJson(PROJECT)};
  RETURN NEW;
END`,
  },
];

const VOLATILITY = { i: 'IMMUTABLE', s: 'STABLE', v: 'VOLATILE' } as const;

/**
 * The CREATE OR REPLACE statements of `RANK_JSON_FUNCTIONS`: the text a new migration pastes
 * in (see the rule above). The triggers that call them and the json_* columns are the
 * migration's own.
 */
export function rankJsonFunctionsSql(): string[] {
  return RANK_JSON_FUNCTIONS.map((f) => {
    const attrs = [
      `LANGUAGE ${f.language}`,
      VOLATILITY[f.volatility],
      ...(f.parallelSafe ? ['PARALLEL SAFE'] : []),
      ...f.config.map((c) => `SET ${c.replace('=', ' = ')}`),
    ].join(' ');
    return `CREATE OR REPLACE FUNCTION ${f.name}(${f.args}) RETURNS ${f.returns}\n  ${attrs}\n  AS $$ ${f.body} $$`;
  });
}
