import { Client } from 'pg';
import { Answer, record } from './traffic';

/**
 * Rank data across a primary failover (issue 43, items 3 and 4): one writer posts checks
 * through the admin ingestion (`POST /admin/v1/tracked-keywords/:id/checks`, the write path the
 * worker's collection shares) for one account while readers page `GET /api/v1/rank/keywords`
 * for it and for a second account, whose pages the API keeps (docs/your-data.md, "Pages kept by
 * the API"). Every write is told apart by its landing page (`…/w/<seq>`), its date (one per
 * keyword and write, so that every write stays a row of its own) and its position, so a page
 * shows which write of each keyword it was read after.
 */

/** Keywords of the written account; a write goes to keyword `seq % KEYWORDS`. */
export const KEYWORDS = 6;
/** Keywords of the second account (read only, but for one write per probe on its first). */
export const OTHER_KEYWORDS = 3;
/**
 * The n-th write of a keyword is dated today − (FIRST_DAY_BACK − n) days: all on or before
 * today (a check after today makes a page not kept) and within /rank/history's 365 days.
 */
const FIRST_DAY_BACK = 360;

export interface RankWrite {
  seq: number;
  /** Index of the keyword in `RankFixture.ids`. */
  kw: number;
  /** The write's number on its keyword (0: the fixture's own check). */
  n: number;
  date: string;
  position: number;
  landing: string;
  answer: Answer;
}

export interface RankEntry {
  keyword_id: number;
  keyword: string;
  project_domain: string;
  last_checked: string | null;
  current_position: number | null;
  landing_page: string | null;
}

const day = (today: Date, back: number) =>
  new Date(today.getTime() - back * 86_400_000).toISOString().slice(0, 10);

/** One account's rank project and keywords, written through the admin API. */
export class RankFixture {
  readonly ids: number[] = [];
  readonly names: string[] = [];
  /** Every write posted, in order (seq = index). */
  readonly writes: RankWrite[] = [];
  private perKeyword: number[] = [];
  private readonly today = new Date();
  private readonly auth: Record<string, string>;

  constructor(
    private readonly base: string,
    adminToken: string,
    readonly accountId: number,
    readonly domain: string,
  ) {
    this.auth = { Authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  }

  /** The project and `count` keywords, each with one check (write n = 0). */
  async create(count: number): Promise<void> {
    const project = await this.admin(`/accounts/${this.accountId}/rank-projects`, {
      domain: this.domain,
      name: `Failover ${this.domain}`,
    });
    for (let i = 0; i < count; i++) {
      const name = `${this.domain} kw ${i}`;
      const kw = await this.admin(`/rank-projects/${project.id as number}/keywords`, {
        keyword: name,
        country: 'US',
        language: 'en',
        device: 'desktop',
      });
      this.ids.push(kw.id as number);
      this.names.push(name);
      this.perKeyword.push(0);
    }
    for (let i = 0; i < count; i++) {
      const w = await this.post([], i);
      if (w.answer.status !== 200)
        throw new Error(`rank fixture check: ${w.answer.status} ${JSON.stringify(w.answer.body)}`);
    }
  }

  /** Whether keyword `kw` can take another write within the dated range. */
  hasRoom(kw: number): boolean {
    return this.perKeyword[kw] <= FIRST_DAY_BACK;
  }

  /** Posts the next write of keyword `kw` (its answer recorded in `answers`). */
  async post(answers: Answer[], kw: number): Promise<RankWrite> {
    const seq = this.writes.length;
    const n = this.perKeyword[kw]++;
    const w: Omit<RankWrite, 'answer'> = {
      seq,
      kw,
      n,
      date: day(this.today, FIRST_DAY_BACK - n),
      position: 1 + (seq % 100),
      landing: `https://${this.domain}/w/${seq}`,
    };
    const slot = { ...w, answer: undefined as unknown as Answer };
    this.writes.push(slot);
    slot.answer = await record(
      answers,
      'rank-write',
      `${this.base}/admin/v1/tracked-keywords/${this.ids[kw]}/checks`,
      {
        method: 'POST',
        headers: this.auth,
        body: JSON.stringify({
          checks: [{ check_date: w.date, position: w.position, landing_page: w.landing }],
        }),
      },
      20_000,
    );
    return slot;
  }

  /** For each keyword, the newest write acknowledged (200) by `at`; -1 when none. */
  newestAcked(at: number): number[] {
    const newest = this.ids.map(() => -1);
    for (const w of this.writes)
      if (w.answer?.status === 200 && w.answer.end <= at)
        newest[w.kw] = Math.max(newest[w.kw], w.seq);
    return newest;
  }

  /**
   * What is wrong with a 200 answer of GET /rank/keywords for this account (an empty list when
   * nothing): the envelope and paging, each entry this account's keyword in order, and each
   * entry's latest check one write of that keyword, whole (date, position and landing page of
   * the same write) and posted before the answer came. `seqs` gets the write each keyword shows.
   */
  pageProblems(a: Answer, seqs: number[] = []): string[] {
    const problems: string[] = [];
    const body = a.body as
      | {
          success?: boolean;
          data?: { keywords?: RankEntry[]; count?: number };
          meta?: Record<string, unknown>;
        }
      | undefined;
    const list = body?.data?.keywords;
    if (body?.success !== true || !Array.isArray(list))
      return ['not a success envelope with data.keywords'];
    const meta = body.meta ?? {};
    if (body.data!.count !== list.length)
      problems.push(`count ${body.data!.count} for ${list.length} entries`);
    if (meta.total !== this.ids.length || meta.offset !== 0 || meta.next !== null)
      problems.push(
        `meta ${JSON.stringify({ total: meta.total, offset: meta.offset, next: meta.next })}`,
      );
    if (list.length !== this.ids.length)
      problems.push(`${list.length} entries for ${this.ids.length} keywords`);
    list.forEach((e, i) => {
      const kw = this.ids.indexOf(e.keyword_id);
      if (kw === -1 || e.project_domain !== this.domain || e.keyword !== this.names[kw]) {
        problems.push(`entry ${i} is not this account's: ${JSON.stringify(e)}`);
        return;
      }
      if (kw !== i) problems.push(`entry ${i} is keyword ${kw} (order by id)`);
      const seq = Number(/\/w\/(\d+)$/.exec(e.landing_page ?? '')?.[1] ?? NaN);
      const w = this.writes[seq];
      if (!w || w.kw !== kw || w.date !== e.last_checked || w.position !== e.current_position) {
        problems.push(`entry ${i} is no write of its keyword: ${JSON.stringify(e)}`);
        return;
      }
      if (w.answer && w.answer.start > a.end)
        problems.push(`entry ${i} shows write ${seq}, posted after the answer`);
      seqs[kw] = seq;
    });
    return problems;
  }

  private async admin(path: string, body: unknown): Promise<Record<string, unknown>> {
    const res = await fetch(`${this.base}/admin/v1${path}`, {
      method: 'POST',
      headers: this.auth,
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { data?: Record<string, unknown> };
    if (res.status !== 200 && res.status !== 201)
      throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data!;
  }
}

/** A node's answer to "have you replayed (or, as a primary, written) up to this position?". */
export interface NodeReplay {
  port: number;
  down?: boolean;
  /** Why it did not answer. */
  error?: string;
  recovery?: boolean;
  caught_up?: boolean;
}

/**
 * Waits until every node that answers (1 s to connect) has replayed the WAL up to `lsn` (a
 * standby) or holds it (a primary), so that any database a read can go to has what was
 * committed before it. A node that does not answer (killed, frozen) cannot serve a read;
 * with `all`, every node must answer (the cluster has healed).
 */
export async function replayedEverywhere(
  ports: number[],
  db: string,
  lsn: string,
  timeoutMs: number,
  all = false,
): Promise<NodeReplay[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = await Promise.all(ports.map((port) => nodeReplay(port, db, lsn)));
    if (states.every((s) => (s.down && !all) || s.caught_up)) return states;
    if (Date.now() > deadline)
      throw new Error(`WAL ${lsn} not replayed everywhere: ${JSON.stringify(states)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function nodeReplay(port: number, db: string, lsn: string): Promise<NodeReplay> {
  const c = new Client({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database: db,
    connectionTimeoutMillis: 1_000,
    query_timeout: 1_000,
  });
  c.on('error', () => undefined);
  try {
    await c.connect();
    const r = await c.query<{ recovery: boolean; caught_up: boolean }>(
      `SELECT pg_is_in_recovery() AS recovery,
              CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() >= $1::pg_lsn
                   ELSE pg_current_wal_lsn() >= $1::pg_lsn END AS caught_up`,
      [lsn],
    );
    return { port, ...r.rows[0] };
  } catch (err) {
    return { port, down: true, error: (err as Error).message };
  } finally {
    // A frozen server never answers the Terminate message: close the socket, do not wait.
    (
      c as unknown as { connection?: { stream?: { destroy(): void } } }
    ).connection?.stream?.destroy();
    void c.end().catch(() => undefined);
  }
}
