import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { GENEROUS, YourDataAdmin, get, scanBody } from './your-data-fixtures';

describe('AI visibility: GET /ai-visibility/projects and /share-of-voice (spec: AI-visibility project, Share of voice)', () => {
  let t: TestApp;
  let yd: YourDataAdmin;
  let acc: TestAccount;
  let other: TestAccount;
  let scanned: number;
  let never: number;
  let otherProject: number;

  const competitors = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      competitor_name: `Rival ${String(i).padStart(2, '0')}`,
      competitor_domain: `rival${String(i).padStart(2, '0')}.com`,
      mention_count: i < 4 ? 99 : 100 - i, // four-way tie at 99 → ordered by domain
      visibility_score: 20 + i,
      avg_position: 3.5,
    }));

  beforeAll(async () => {
    t = await createTestApp({ now: '2026-06-15T12:00:00Z' });
    const admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
    acc = await admin.account('pro', GENEROUS);
    other = await admin.account('pro', GENEROUS);
    scanned = await yd.aiProject(acc.id, 'brand.com', {
      brand_name: 'Brand',
      ai_engine: 'perplexity',
    });
    never = await yd.aiProject(acc.id, 'quiet.com', { brand_name: 'Quiet' });
    otherProject = await yd.aiProject(other.id, 'theirs.com');
  });
  afterAll(() => t.close());

  it('a never-scanned project: scores null, score_change null, latest_snapshot null, brand_share_pct null', async () => {
    const list = await get(t, acc, '/api/v1/ai-visibility/projects');
    expect(list.status).toBe(200);
    expect(list.body.data.count).toBe(2);
    const p = list.body.data.projects.find((x: { id: number }) => x.id === never);
    expect(p).toMatchObject({
      domain: 'quiet.com',
      brand_name: 'Quiet',
      target_country: 'US',
      target_language: 'en',
      ai_engine: 'chatgpt',
      tracking_frequency: 'weekly',
      status: 'active',
      visibility_score: null,
      previous_visibility_score: null,
      score_change: null,
    });
    expect(p.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const sov = await get(t, acc, `/api/v1/ai-visibility/share-of-voice?project_id=${never}`);
    expect(sov.status).toBe(200);
    expect(sov.body.data.latest_snapshot).toBeNull();
    expect(sov.body.data.share_of_voice).toEqual({
      brand_mentions: 0,
      competitor_mentions: 0,
      total_mentions: 0,
      brand_share_pct: null,
    });
    expect(sov.body.data.competitors).toEqual([]);
  });

  it('score_change stays null after one scan, then is newest − previous (scans posted out of date order)', async () => {
    await yd.scan(scanned, scanBody('2026-06-08', { visibility_score: 60 }));
    let p = (await get(t, acc, '/api/v1/ai-visibility/projects')).body.data.projects.find(
      (x: { id: number }) => x.id === scanned,
    );
    expect(p).toMatchObject({
      visibility_score: 60,
      previous_visibility_score: null,
      score_change: null,
    });
    // an older scan arrives later: it becomes "previous", not the current score
    await yd.scan(scanned, scanBody('2026-06-01', { visibility_score: 52.5 }));
    p = (await get(t, acc, '/api/v1/ai-visibility/projects')).body.data.projects.find(
      (x: { id: number }) => x.id === scanned,
    );
    expect(p).toMatchObject({
      visibility_score: 60,
      previous_visibility_score: 52.5,
      score_change: 7.5,
    });
    // the newest scan, with 25 competitors
    const stored = await yd.scan(
      scanned,
      scanBody('2026-06-15', {
        visibility_score: 64,
        brand_mentions: 30,
        mention_rate: 42,
        competitors: competitors(25),
      }),
    );
    expect(stored).toMatchObject({
      stored: 1,
      competitors: 25,
      visibility_score: 64,
      previous_visibility_score: 60,
    });
    p = (await get(t, acc, '/api/v1/ai-visibility/projects')).body.data.projects.find(
      (x: { id: number }) => x.id === scanned,
    );
    expect(p).toMatchObject({
      visibility_score: 64,
      previous_visibility_score: 60,
      score_change: 4,
    });
  });

  it('share-of-voice: project, latest snapshot, brand share of all mentions, top 20 competitors by mentions', async () => {
    const res = await get(t, acc, `/api/v1/ai-visibility/share-of-voice?project_id=${scanned}`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.project).toEqual({
      id: scanned,
      domain: 'brand.com',
      brand_name: 'Brand',
      target_country: 'US',
      ai_engine: 'perplexity',
      visibility_score: 64,
      previous_visibility_score: 60,
    });
    expect(d.latest_snapshot).toEqual({
      geo_score: 40,
      mention_rate: 42,
      avg_position: 2.5,
      sentiment_avg: 0.4,
      citation_rate: 12,
      competition_score: 55,
      prompts_evaluated: 100,
      snapshot_date: '2026-06-15',
    });
    // competitor mentions: 4 × 99 + Σ(100 − i, i = 4..24) = 396 + 1806 = 2202 (all 25, not only the 20 shown)
    expect(d.share_of_voice).toEqual({
      brand_mentions: 30,
      competitor_mentions: 2202,
      total_mentions: 2232,
      brand_share_pct: 1.34,
    });
    expect(d.competitors).toHaveLength(20);
    const counts = d.competitors.map((c: { mention_count: number }) => c.mention_count);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));
    const tied = d.competitors
      .filter((c: { mention_count: number }) => c.mention_count === 99)
      .map((c: { competitor_domain: string }) => c.competitor_domain);
    expect(tied).toEqual(['rival00.com', 'rival01.com', 'rival02.com', 'rival03.com']);
    expect(d.competitors[4]).toEqual({
      competitor_name: 'Rival 04',
      competitor_domain: 'rival04.com',
      mention_count: 96,
      visibility_score: 24,
      avg_position: 3.5,
      updated_at: '2026-06-15 12:00:00',
    });
    // mention_rate (coverage of prompts) is not the brand share (competitive position)
    expect(d.latest_snapshot.mention_rate).not.toBe(d.share_of_voice.brand_share_pct);
  });

  it('re-posting a snapshot date replaces it and its competitors (no duplicates)', async () => {
    await yd.scan(
      scanned,
      scanBody('2026-06-15', {
        visibility_score: 66,
        brand_mentions: 10,
        competitors: competitors(2),
      }),
    );
    const res = await get(t, acc, `/api/v1/ai-visibility/share-of-voice?project_id=${scanned}`);
    expect(res.body.data.competitors).toHaveLength(2);
    expect(res.body.data.share_of_voice).toEqual({
      brand_mentions: 10,
      competitor_mentions: 198,
      total_mentions: 208,
      brand_share_pct: 4.81,
    });
    expect(res.body.data.project).toMatchObject({
      visibility_score: 66,
      previous_visibility_score: 60,
    });
    const n = await t.db.query(
      `SELECT count(*)::int AS n FROM ai_visibility_snapshots WHERE project_id = $1`,
      [scanned],
    );
    expect(n[0].n).toBe(3);
  });

  it('brand_share_pct is 0 (not null) when only competitors are mentioned', async () => {
    const p = await yd.aiProject(acc.id, 'zero.com');
    await yd.scan(p, scanBody('2026-06-10', { brand_mentions: 0, competitors: competitors(1) }));
    const res = await get(t, acc, `/api/v1/ai-visibility/share-of-voice?project_id=${p}`);
    expect(res.body.data.share_of_voice.brand_share_pct).toBe(0);
    const q = await yd.aiProject(acc.id, 'silent.com');
    await yd.scan(q, scanBody('2026-06-10', { brand_mentions: 0, competitors: [] }));
    const r2 = await get(t, acc, `/api/v1/ai-visibility/share-of-voice?project_id=${q}`);
    expect(r2.body.data.share_of_voice.brand_share_pct).toBeNull();
    expect(r2.body.data.latest_snapshot).not.toBeNull();
  });

  it('another account’s project is 404 NOT_FOUND and never listed', async () => {
    const res = await get(
      t,
      acc,
      `/api/v1/ai-visibility/share-of-voice?project_id=${otherProject}`,
    );
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    const list = await get(t, acc, '/api/v1/ai-visibility/projects');
    expect(list.body.data.projects.map((p: { id: number }) => p.id)).not.toContain(otherProject);
  });

  it.each([
    [''],
    ['project_id='],
    ['project_id=abc'],
    ['project_id=2.5'],
    ['project_id=-1'],
    ['project_id=1%20UNION%20SELECT%201'],
    ['project_id=123456789012345'],
  ])('GET /ai-visibility/share-of-voice?%s → 422 VALIDATION_ERROR', async (qs) => {
    const res = await get(t, acc, `/api/v1/ai-visibility/share-of-voice?${qs}`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('concurrent scans of one project are serialized: the scores end as newest and second newest', async () => {
    const p = await yd.aiProject(acc.id, 'race.com');
    const dates = [
      '2026-05-01',
      '2026-05-08',
      '2026-05-15',
      '2026-05-22',
      '2026-05-29',
      '2026-06-05',
    ];
    await Promise.all(dates.map((d, i) => yd.scan(p, scanBody(d, { visibility_score: 10 + i }))));
    const res = await get(t, acc, `/api/v1/ai-visibility/share-of-voice?project_id=${p}`);
    expect(res.body.data.project).toMatchObject({
      visibility_score: 15,
      previous_visibility_score: 14,
    });
    expect(res.body.data.latest_snapshot.snapshot_date).toBe('2026-06-05');
  });
});
