import { metrics } from '@app/core';
import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { GENEROUS, YourDataAdmin, get } from './your-data-fixtures';

type Entry = { keyword_id: number; keyword: string; status: string; project_name: string } & {
  current_position: number | null;
  last_checked: string | null;
};

/** How many GET /rank/keywords pages of this jest process came from where (both apps share it). */
async function pagesCounted(result: 'kept' | 'read' | 'not_kept'): Promise<number> {
  const { values } = await metrics.rankPages.get();
  return values.find((v) => v.labels.result === result)?.value ?? 0;
}

/**
 * GET /rank/keywords pages kept by the API process (docs/your-data.md, "Pages kept by the
 * API"): served again only while the account's rank version is unchanged, which every write
 * path moves in the writing transaction, so every process sees a change on its next request.
 * Two API processes share the database here.
 */
describe('rank keyword pages kept by the API: never older than the data', () => {
  let one: TestApp;
  let two: TestApp;
  let yd: YourDataAdmin;
  let ydTwo: YourDataAdmin;
  let acc: TestAccount;
  let other: TestAccount;
  let project: number;
  const kw: number[] = [];

  beforeAll(async () => {
    one = await createTestApp({ now: '2026-06-15T09:30:00Z' });
    two = await createTestApp({ now: '2026-06-15T09:30:00Z' });
    yd = new YourDataAdmin(new AdminClient(one.url));
    ydTwo = new YourDataAdmin(new AdminClient(two.url));
    acc = await yd.admin.account('pro', GENEROUS);
    other = await yd.admin.account('pro', GENEROUS);
    project = await yd.rankProject(acc.id, 'kept.example', 'Kept');
    for (const word of ['alpha', 'beta', 'gamma']) {
      const id = await yd.keyword(project, word);
      await yd.checks(id, [{ check_date: '2026-06-14', position: 5 }]);
      kw.push(id);
    }
  });
  afterAll(async () => {
    await one.close();
    await two.close();
  });

  const page = async (t: TestApp, path = '/api/v1/rank/keywords') => {
    const res = await get(t, acc, path);
    expect(res.status).toBe(200);
    return res.body.data as { keywords: Entry[]; count: number };
  };
  const version = async (accountId: number): Promise<number> => {
    const rows: Array<{ version: string }> = await one.db.query(
      'SELECT version FROM rank_versions WHERE account_id = $1',
      [accountId],
    );
    return rows.length ? Number(rows[0].version) : 0;
  };

  /** Reads the page twice on process one: the second answer comes from its kept bytes. */
  const keptOnOne = async () => {
    const first = await page(one);
    const kept = await pagesCounted('kept');
    const again = await page(one);
    expect(await pagesCounted('kept')).toBe(kept + 1);
    expect(again).toEqual(first);
    return first;
  };

  it('serves an unchanged page again from the bytes it sent, the same answer', async () => {
    const read = await pagesCounted('read');
    const first = await page(one);
    expect(await pagesCounted('read')).toBe(read + 1);
    expect(first.keywords.map((k) => k.keyword)).toEqual(['alpha', 'beta', 'gamma']);
    expect(first.count).toBe(3);
    await keptOnOne();
    // Uncompressed (supertest asks for gzip by default): the length of the bytes themselves.
    const raw = await get(one, acc, '/api/v1/rank/keywords').set('Accept-Encoding', 'identity');
    expect(raw.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(Number(raw.headers['content-length'])).toBe(Buffer.byteLength(raw.text));
  });

  it('a check ingested through the other process is in the next answer', async () => {
    await keptOnOne();
    await ydTwo.checks(kw[0], [{ check_date: '2026-06-15', position: 2 }]);
    const after = await page(one);
    expect(after.keywords[0]).toMatchObject({ current_position: 2, last_checked: '2026-06-15' });
  });

  it('a project renamed through the admin API is in the next answer', async () => {
    await keptOnOne();
    expect(await ydTwo.rankProject(acc.id, 'kept.example', 'Renamed')).toBe(project);
    const after = await page(one);
    expect(after.keywords.map((k) => k.project_name)).toEqual(['Renamed', 'Renamed', 'Renamed']);
  });

  it('plain SQL writes (update, insert, delete) are in the next answer', async () => {
    await keptOnOne();
    await two.db.query(`UPDATE tracked_keywords SET status = 'paused' WHERE id = $1`, [kw[1]]);
    expect((await page(one)).keywords[1].status).toBe('paused');

    await keptOnOne();
    await two.db.query(`DELETE FROM tracked_keywords WHERE id = $1`, [kw[2]]);
    const deleted = await page(one);
    expect(deleted.keywords.map((k) => k.keyword_id)).toEqual([kw[0], kw[1]]);
    expect(deleted.count).toBe(2);

    await keptOnOne();
    kw[2] = await ydTwo.keyword(project, 'delta');
    const added = await page(one);
    expect(added.keywords.map((k) => k.keyword)).toEqual(['alpha', 'beta', 'delta']);
  });

  it('a transaction moves the version once, a rolled-back one not at all, another account not', async () => {
    const before = await version(acc.id);
    const otherBefore = await version(other.id);
    await one.db.transaction(async (m) => {
      for (const id of kw)
        await m.query(`UPDATE tracked_keywords SET status = 'active' WHERE id = $1`, [id]);
      await m.query(`UPDATE rank_projects SET name = 'Kept' WHERE id = $1`, [project]);
    });
    expect(await version(acc.id)).toBe(before + 1);
    await expect(
      one.db.transaction(async (m) => {
        await m.query(`UPDATE tracked_keywords SET status = 'paused' WHERE id = $1`, [kw[0]]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await version(acc.id)).toBe(before + 1);
    expect(await version(other.id)).toBe(otherBefore);
    expect((await page(one)).keywords.map((k) => k.status)).toEqual(['active', 'active', 'active']);
  });

  it('an account deleted with its keywords and version row commits, and leaves no version', async () => {
    const gone = await yd.admin.account('pro', GENEROUS);
    const goneProject = await yd.rankProject(gone.id, 'gone.example', 'Gone');
    await yd.keyword(goneProject, 'gone');
    expect(await version(gone.id)).toBeGreaterThan(0);
    await one.db.transaction(async (m) => {
      await m.query(`UPDATE tracked_keywords SET status = 'paused' WHERE account_id = $1`, [
        gone.id,
      ]);
      await m.query('DELETE FROM accounts WHERE id = $1', [gone.id]);
    });
    expect(await version(gone.id)).toBe(0);
  });

  it('concurrent ingestion into every keyword of one account: no deadlock, one bump each', async () => {
    const before = await version(acc.id);
    const posts = Array.from({ length: 12 }, (_, i) =>
      (i % 2 ? ydTwo : yd).checks(kw[i % 3], [
        { check_date: '2026-06-15', position: 1 + i },
        { check_date: `2026-06-${String(1 + i).padStart(2, '0')}`, position: 30 + i },
      ]),
    );
    await Promise.all(posts);
    expect(await version(acc.id)).toBe(before + 12);
    const after = await page(one);
    // Each keyword's latest is whichever of its batches committed last: one of its own.
    after.keywords.forEach((k, i) => {
      expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].filter((p) => (p - 1) % 3 === i)).toContain(
        k.current_position,
      );
    });
  });

  it('pages are kept per account, project, limit and day', async () => {
    const otherProject = await yd.rankProject(other.id, 'kept.example', 'Theirs');
    await yd.keyword(otherProject, 'theirs');
    const mine = await page(one);
    const theirs = await get(one, other, '/api/v1/rank/keywords');
    expect(theirs.body.data.keywords.map((k: Entry) => k.keyword)).toEqual(['theirs']);
    expect((await page(one, '/api/v1/rank/keywords?limit=1')).keywords).toHaveLength(1);
    expect((await page(one, `/api/v1/rank/keywords?project_id=${project}`)).count).toBe(3);
    expect(await page(one)).toEqual(mine);
  });

  it('pages at other offsets are kept apart, each with its total, and a change is on every page', async () => {
    const at = (offset: number) => `/api/v1/rank/keywords?limit=1&offset=${offset}`;
    const meta = async (t: TestApp, offset: number) => (await get(t, acc, at(offset))).body.meta;
    const names = async (t: TestApp) =>
      Promise.all([0, 1, 2].map(async (o) => (await page(t, at(o))).keywords[0]?.keyword));
    const before = await names(one);
    expect(before).toHaveLength(3);
    const kept = await pagesCounted('kept');
    expect(await names(one)).toEqual(before);
    expect(await pagesCounted('kept')).toBe(kept + 3);
    expect(await meta(one, 2)).toMatchObject({ offset: 2, total: 3, next: null });
    expect(await meta(one, 1)).toMatchObject({
      total: 3,
      next: '/api/v1/rank/keywords?limit=1&offset=2',
    });

    // A keyword added through the other process: every kept page of process one reads again.
    const added = await ydTwo.keyword(project, 'zeta');
    const read = await pagesCounted('read');
    expect(await names(one)).toEqual(before);
    expect(await pagesCounted('read')).toBe(read + 3);
    expect(await meta(one, 2)).toMatchObject({
      total: 4,
      next: '/api/v1/rank/keywords?limit=1&offset=3',
    });
    expect((await page(one, at(3))).keywords.map((k) => k.keyword)).toEqual(['zeta']);

    // Renamed by plain SQL: on every page at once; deleted: the totals and the last page follow.
    await two.db.query(`UPDATE rank_projects SET name = 'Renamed' WHERE id = $1`, [project]);
    for (const o of [0, 1, 2, 3])
      expect((await page(one, at(o))).keywords[0].project_name).toBe('Renamed');
    await two.db.query('DELETE FROM tracked_keywords WHERE id = $1', [added]);
    expect(await meta(one, 2)).toMatchObject({ total: 3, next: null });
    expect(await meta(one, 3)).toMatchObject({ total: 3, next: null });
    expect((await page(one, at(3))).count).toBe(0);
    await two.db.query(`UPDATE rank_projects SET name = 'Kept' WHERE id = $1`, [project]);
  });

  it('a page with a check dated after today is not kept, and shows it once the day comes', async () => {
    await yd.checks(kw[1], [{ check_date: '2026-06-16', position: 99 }]);
    const notKept = await pagesCounted('not_kept');
    const today = await page(one);
    expect(today.keywords[1].last_checked).toBe('2026-06-15');
    await page(one);
    expect(await pagesCounted('not_kept')).toBe(notKept + 2);
    one.clock.set('2026-06-16T00:00:01Z');
    try {
      const tomorrow = await page(one);
      expect(tomorrow.keywords[1]).toMatchObject({
        last_checked: '2026-06-16',
        current_position: 99,
      });
    } finally {
      one.clock.set('2026-06-15T09:30:00Z');
    }
  });
});
