import type { TestingModule } from '@nestjs/testing';
import { AppConfig, metricsRegistry } from '@app/core';
import { AiVisibilityIngestionRepository } from '@app/database';
import { sentenceSentiment, competitionScore, geoScore, visibilityScore } from '@app/providers';
import { AiVisibilityScansService } from '../../apps/worker/src/ai-visibility-scans/ai-visibility-scans.service';
import { FakeLlmResponses } from '../fixtures/fake-llm-responses';
import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createOwnDatabase } from '../helpers/own-database';
import { TestApp, createTestApp } from '../helpers/test-app';
import { startWorker } from '../site-audit/site-audit-helpers';
import { GENEROUS, expectOk, get } from './your-data-fixtures';

jest.setTimeout(90_000);

const ACME = { brand: 'Acme', domain: 'acme-tools.com' };
const COMPETITORS = [
  { name: 'Bolt', domain: 'bolt.io' },
  { name: 'Crank Co', domain: 'crank.example' },
];

/**
 * AI-visibility scans (docs/ai-visibility-scans.md): the real LLM Responses client against a
 * local fake of the live endpoints, the scan statements on a database of the suite's own
 * (scans claim every due project of a database) and the ingestion write path, read back
 * through the public routes.
 */
describe('AI-visibility scans (LLM Responses fake)', () => {
  const fake = new FakeLlmResponses();
  let t: TestApp;
  let db: { url: string; drop: () => Promise<void> } | undefined;
  const workers: TestingModule[] = [];
  let admin: AdminClient;
  let acc: TestAccount;

  beforeAll(async () => {
    await fake.start();
    db = await createOwnDatabase('aiscans');
    t = await createTestApp({
      env: fake.env({
        DATABASE_URL: db.url,
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:aiscans`,
        AI_ENGINE_CONCURRENCY: '2',
        AI_VISIBILITY_SCAN_INTERVAL_SECONDS: '600',
      }),
    });
    admin = new AdminClient(t.url);
    acc = await admin.account('pro', GENEROUS);
  });
  afterAll(async () => {
    for (const w of workers) await w.close();
    await t?.close();
    await fake.close();
    await db?.drop();
  });

  /** A worker (scheduler off unless `config` turns it on); its scans service. */
  const worker = async (config: AppConfig = t.config) => {
    const w = await startWorker(config, t.clock);
    workers.push(w);
    return w.get(AiVisibilityScansService);
  };

  /** A project made by the admin route, then given prompts and competitors, due now. */
  const project = async (
    domain: string,
    engine: string,
    prompts: string[],
    frequency = 'daily',
  ): Promise<number> => {
    const res = await admin.post(`/accounts/${acc.id}/ai-visibility-projects`, {
      domain,
      brand_name: ACME.brand,
      target_country: 'US',
      target_language: 'en',
      ai_engine: engine,
      tracking_frequency: frequency,
    });
    expectOk(res, 201);
    const id = res.body.data.id as number;
    const ok = await t.app
      .get(AiVisibilityIngestionRepository)
      .setScanSettings(
        id,
        { brand_aliases: ['Acme Tools'], prompts, competitors: COMPETITORS },
        t.clock.now(),
        t.clock.now(),
      );
    expect(ok).toBe(true);
    return id;
  };

  const snapshots = (projectId: number) =>
    t.db.query(
      `SELECT to_char(snapshot_date, 'YYYY-MM-DD') AS snapshot_date, visibility_score, geo_score,
              mention_rate, avg_position, sentiment_avg, citation_rate, competition_score,
              prompts_evaluated, brand_mentions, id
       FROM ai_visibility_snapshots WHERE project_id = $1 ORDER BY snapshot_date`,
      [projectId],
    ) as Promise<Array<Record<string, number | string | null>>>;

  const spend = async (endpoint: string) =>
    (
      (await t.db.query(
        `SELECT tasks, usd::float8 AS usd FROM provider_spend WHERE account_id = $1 AND endpoint = $2`,
        [acc.id, endpoint],
      )) as Array<{ tasks: number; usd: number }>
    )[0];

  it('stores a snapshot whose every figure matches the answers, and every prompt cost', async () => {
    const p = ['best hand tools', 'who sells drills', 'garden tips', 'cheap wrenches'];
    fake.answers.set(p[0], {
      text: 'Acme is excellent for beginners. Bolt is fine.',
      urls: ['https://www.acme-tools.com/guide?utm_source=openai', 'https://news.example/x'],
      moneySpent: 0.003,
    });
    fake.answers.set(p[1], {
      text: 'Bolt leads the market. Crank Co follows, and acme-tools.com comes third.',
      urls: ['https://bolt.io/drills'],
      moneySpent: 0.001,
    });
    fake.answers.set(p[2], { text: 'Water plants in the morning.', urls: [] });
    fake.answers.set(p[3], {
      text: 'Crank Co is a good choice.\nACME TOOLS is terrible value.',
      urls: ['https://blog.crank.example/w'],
    });
    const id = await project('acme-tools.com', 'chatgpt', p);
    const scans = await worker();
    const run = await scans.runDue();
    expect(run).toMatchObject({ projects: 1, asked: 4, answered: 4, failed: 0, stored: 1 });

    const [snap] = await snapshots(id);
    // Brand: mentioned in answers 1 (1st of 2), 2 (3rd of 3), 4 (2nd of 2); cited in answer 1.
    const sentiment =
      (sentenceSentiment('Acme is excellent for beginners.') +
        sentenceSentiment('Crank Co follows, and acme-tools.com comes third.') +
        sentenceSentiment('ACME TOOLS is terrible value.')) /
      3;
    expect(snap).toMatchObject({
      snapshot_date: t.clock.now().toISOString().slice(0, 10),
      prompts_evaluated: 4,
      brand_mentions: 3,
      mention_rate: 75,
      citation_rate: 25,
      avg_position: 2,
      visibility_score: visibilityScore(75, 25, 2),
      geo_score: geoScore(75, 25, sentiment),
      // 7 tracked mentions, 3 of them the brand's; 3 answers name a tracked brand, 1 names it first.
      competition_score: competitionScore(3, 4, 3, 1),
    });
    expect(snap.sentiment_avg).toBeCloseTo(sentiment, 3);
    expect(snap.sentiment_avg).toBeGreaterThanOrEqual(-1);
    expect(snap.sentiment_avg).toBeLessThanOrEqual(1);

    const sov = await get(t, acc, `/api/v1/ai-visibility/share-of-voice?project_id=${id}`);
    expectOk(sov);
    expect(sov.body.data.share_of_voice).toMatchObject({
      brand_mentions: 3,
      competitor_mentions: 4,
      total_mentions: 7,
    });
    const rivals = sov.body.data.competitors as Array<Record<string, unknown>>;
    expect(rivals.map((c) => [c.competitor_domain, c.mention_count, c.avg_position])).toEqual([
      ['bolt.io', 2, 1.5],
      ['crank.example', 2, 1.5],
    ]);
    // Bolt: named in 2 of 4 answers, cited in 1.
    expect(rivals[0].visibility_score).toBe(visibilityScore(50, 25, 1.5));
    expect(sov.body.data.latest_snapshot).toMatchObject({ prompts_evaluated: 4, mention_rate: 75 });

    // The answers of the scan, with the brands read from them (the console's evidence).
    const answers = (await t.db.query(
      `SELECT prompt, status, cited_urls, mentions, cost_usd::float8 AS cost FROM ai_visibility_answers
       WHERE project_id = $1 ORDER BY prompt`,
      [id],
    )) as Array<Record<string, unknown>>;
    expect(answers).toHaveLength(4);
    const first = answers.find((a) => a.prompt === p[0])!;
    expect(first.cited_urls).toEqual([
      'https://www.acme-tools.com/guide',
      'https://news.example/x',
    ]);
    expect(first.mentions).toEqual([
      { name: 'Acme', domain: 'acme-tools.com', brand: true, position: 1, cited: true },
      { name: 'Bolt', domain: 'bolt.io', brand: false, position: 2, cited: false },
    ]);
    expect(first.cost).toBeCloseTo(fake.costOf(p[0]), 6);

    // Web search on, the market's country, one call per prompt.
    const call = fake.calls.find((c) => c.task.user_prompt === p[0])!;
    expect(call.se).toBe('chat_gpt');
    expect(call.task).toMatchObject({ web_search: true, web_search_country_iso_code: 'US' });
    const ledger = await spend('ai_optimization/chat_gpt/llm_responses/live');
    expect(ledger.tasks).toBe(4);
    expect(ledger.usd).toBeCloseTo(
      p.reduce((a, q) => a + fake.costOf(q), 0),
      6,
    );
    const metric = await metricsRegistry.getSingleMetricAsString('provider_spend_usd_total');
    expect(metric).toMatch(/endpoint="ai_optimization\/chat_gpt\/llm_responses\/live"\} 0\.0/);

    // Due again by its frequency, not before.
    const [row] = (await t.db.query(
      `SELECT next_scan_at, last_scan_error, scan_claimed_until FROM ai_visibility_projects WHERE id = $1`,
      [id],
    )) as Array<{
      next_scan_at: Date;
      last_scan_error: string | null;
      scan_claimed_until: Date | null;
    }>;
    expect(row.next_scan_at.getTime()).toBe(t.clock.now().getTime() + 86_400_000);
    expect(row).toMatchObject({ last_scan_error: null, scan_claimed_until: null });
    expect(await scans.runDue()).toMatchObject({ projects: 0 });
  });

  it('stores nothing while a prompt fails, and asks only the failed one again at the next interval', async () => {
    const p = ['retry one', 'retry two', 'retry broken'];
    fake.answers.set(p[0], { text: 'Acme is good.', urls: [] });
    fake.answers.set(p[1], { text: 'Bolt is good.', urls: [] });
    fake.answers.set(p[2], { text: 'Crank Co and Acme.', urls: ['https://shop.retry-acme.com/'] });
    fake.failCodes.set(p[2], 50000);
    const id = await project('retry-acme.com', 'claude', p);
    const scans = await worker();
    expect(await scans.runDue()).toMatchObject({ projects: 1, answered: 2, failed: 1, stored: 0 });
    expect(await snapshots(id)).toEqual([]);
    const [row] = (await t.db.query(
      `SELECT next_scan_at, last_scan_error FROM ai_visibility_projects WHERE id = $1`,
      [id],
    )) as Array<{ next_scan_at: Date; last_scan_error: string }>;
    expect(row.next_scan_at.getTime()).toBe(t.clock.now().getTime() + 600_000);
    expect(row.last_scan_error).toMatch(/1 of 3 prompts failed; 50000/);

    fake.failCodes.delete(p[2]);
    expect(await scans.runDue()).toMatchObject({ projects: 0 });
    const before = t.clock.now();
    t.clock.set(new Date(before.getTime() + 601_000));
    try {
      expect(await scans.runDue()).toMatchObject({ projects: 1, asked: 1, stored: 1 });
    } finally {
      t.clock.set(before);
    }
    expect(p.map((q) => fake.askedCount(q))).toEqual([1, 1, 2]);
    const [snap] = await snapshots(id);
    expect(snap).toMatchObject({ prompts_evaluated: 3, brand_mentions: 2, citation_rate: 33.33 });
    const ledger = await spend('ai_optimization/claude/llm_responses/live');
    // 4 calls; the failed one charged nothing.
    expect(ledger.tasks).toBe(4);
    expect(ledger.usd).toBeCloseTo(
      p.reduce((a, q) => a + fake.costOf(q), 0),
      6,
    );
  });

  it('keeps a slow engine within its concurrency limit; two workers never scan one project twice', async () => {
    fake.latencyMs.set('gemini', 300);
    const prompts = (k: string) => Array.from({ length: 6 }, (_, i) => `${k} question ${i + 1}`);
    const a = await project('race-a.com', 'gemini', prompts('race a'));
    const b = await project('race-b.com', 'gemini', prompts('race b'));
    const [w1, w2] = [await worker(), await worker()];
    const started = Date.now();
    const runs = await Promise.all([w1.runDue(), w2.runDue()]);
    const ms = Date.now() - started;
    fake.latencyMs.delete('gemini');
    expect(runs.map((r) => r.projects).sort()).toEqual([1, 1]);
    for (const q of [...prompts('race a'), ...prompts('race b')])
      expect(fake.askedCount(q)).toBe(1);
    expect((await snapshots(a)).length).toBe(1);
    expect((await snapshots(b)).length).toBe(1);
    // Each process keeps 2 gemini calls in flight at most: 6 prompts take 3 rounds of 300 ms.
    expect(fake.maxInFlight.get('gemini')).toBeLessThanOrEqual(4);
    expect(ms).toBeGreaterThanOrEqual(850);
  });

  it('an engine slower than the call timeout fails the prompt: no snapshot, retried later', async () => {
    fake.latencyMs.set('claude', 1500);
    const id = await project('slow-acme.com', 'claude', ['too slow a question']);
    const scans = await worker({
      ...t.config,
      aiVisibilityScans: { ...t.config.aiVisibilityScans, engineTimeoutMs: 1000 },
    });
    const run = await scans.runDue();
    fake.latencyMs.delete('claude');
    expect(run).toMatchObject({ projects: 1, asked: 1, failed: 1, stored: 0 });
    expect(await snapshots(id)).toEqual([]);
    const [row] = (await t.db.query(
      `SELECT last_scan_error FROM ai_visibility_projects WHERE id = $1`,
      [id],
    )) as Array<{ last_scan_error: string }>;
    expect(row.last_scan_error).toMatch(/timed out after 1000 ms/);
  });

  it('a 25-prompt scan at a realistic latency: its duration and cost (docs/ai-visibility-scans.md)', async () => {
    fake.latencyMs.set('perplexity', 7000);
    const prompts = Array.from({ length: 25 }, (_, i) => `measured prompt ${i + 1}`);
    const id = await project('measured-acme.com', 'perplexity', prompts);
    const scans = await worker({
      ...t.config,
      aiVisibilityScans: {
        ...t.config.aiVisibilityScans,
        engineConcurrency: 10,
        engineTimeoutMs: 30_000,
      },
    });
    const started = Date.now();
    expect(await scans.runDue()).toMatchObject({ projects: 1, asked: 25, stored: 1 });
    const ms = Date.now() - started;
    fake.latencyMs.delete('perplexity');
    // 25 prompts, 10 at a time: 3 rounds of 7 s.
    expect(ms).toBeGreaterThanOrEqual(21_000);
    expect(ms).toBeLessThan(30_000);
    expect(fake.maxInFlight.get('perplexity')).toBe(10);
    const ledger = await spend('ai_optimization/perplexity/llm_responses/live');
    expect(ledger.tasks).toBe(25);
    expect(ledger.usd).toBeCloseTo(25 * fake.costOf(prompts[0]), 6);
    expect(fake.calls.find((c) => c.task.user_prompt === prompts[0])!.task).not.toHaveProperty(
      'web_search',
    );
    process.stdout.write(`25-prompt scan: ${ms} ms, ${ledger.usd} USD (project ${id})\n`);
  });

  it("the worker's scheduler scans a new project within seconds", async () => {
    await worker({
      ...t.config,
      aiVisibilityScans: { ...t.config.aiVisibilityScans, enabled: true, tickSeconds: 1 },
    });
    fake.answers.set('scheduled prompt', { text: 'Acme, then Bolt.', urls: [] });
    const id = await project('scheduled-acme.com', 'chatgpt', ['scheduled prompt']);
    const deadline = Date.now() + 15_000;
    let scanned: Record<string, unknown> | undefined;
    while (Date.now() < deadline) {
      const res = await get(t, acc, '/api/v1/ai-visibility/projects');
      scanned = (res.body.data.projects as Array<Record<string, unknown>>).find((x) => x.id === id);
      if (scanned?.visibility_score != null) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(scanned?.visibility_score).toBe(visibilityScore(100, 0, 1));
    expect(fake.askedCount('scheduled prompt')).toBe(1);
  });
});
