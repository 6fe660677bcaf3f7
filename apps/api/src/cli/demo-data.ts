import { INestApplicationContext } from '@nestjs/common';
import { Clock, addDays, parsePlainDate, plainDate, prng } from '@app/core';
import { SERP_FEATURES } from '@app/database';
import { RankRepository } from '../rank/rank.repository';
import { RankCheckDto } from '../rank/rank-ingestion.dto';
import { GscIngestionRepository } from '../gsc/gsc-ingestion.repository';
import { GscRowDto } from '../gsc/gsc-ingestion.dto';
import { AiVisibilityService } from '../ai-visibility/ai-visibility.service';
import { AiVisibilityRepository } from '../ai-visibility/ai-visibility.repository';
import { CompetitorDto, ScanDto } from '../ai-visibility/ai-visibility-ingestion.dto';

/**
 * Demo your-data for the demo account, written through the same repositories (and the scan
 * rules of AiVisibilityService) as the admin ingestion endpoints; no SQL here. Every write is an upsert on its natural key, so re-running the seed
 * replaces rows instead of duplicating them. Values come from a seeded PRNG (deterministic);
 * dates are relative to today.
 *
 * - 2 rank projects, 50 keywords, 120 days of checks (with unranked days), 1 keyword never checked
 * - 1 GSC property, 90 days of query × page × country × device rows (a few hundred per day)
 * - 2 AI-visibility projects: one with 8 weekly scans and 25 competitors, one never scanned
 */
interface DemoDataSummary {
  rankProjects: number;
  keywords: number;
  checks: number;
  gscRows: number;
  aiScans: number;
}

const OUTDOOR = [
  'hiking boots',
  'trail running shoes',
  'waterproof jacket',
  'camping tent',
  'sleeping bag',
  'trekking poles',
  'down jacket',
  'hiking backpack',
  'rain pants',
  'merino socks',
  'headlamp',
  'water filter',
  'camp stove',
  'fleece jacket',
  'gaiters',
  'climbing harness',
  'insulated bottle',
  'ultralight tent',
  'bivy sack',
  'hiking sandals',
];
const MODIFIERS = ['best', 'cheap', 'women', 'men', 'review', 'sale'];
const RECIPES = [
  'sourdough bread',
  'banana bread',
  'lasagna',
  'chicken curry',
  'pancakes',
  'chocolate cake',
  'tomato soup',
  'pad thai',
  'risotto',
  'granola',
  'lentil soup',
  'apple pie',
  'guacamole',
  'focaccia',
  'ramen',
  'brownies',
  'hummus',
  'carbonara',
  'shakshuka',
  'paella',
];
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** What every seeding step shares: the app, the account, now, and the seeded PRNG. */
interface DemoSeed {
  app: INestApplicationContext;
  accountId: number;
  now: Date;
  /** The plain date `back` days before today. */
  day: (back: number) => string;
  rnd: () => number;
  pick: <T>(xs: readonly T[]) => T;
}

/** A demo AI-visibility competitor and its made-up strength. */
interface DemoRival {
  name: string;
  domain: string;
  strength: number;
}

/** A GSC query, the pages it lands on, and its base position and search volume. */
interface DemoQueryCombo {
  query: string;
  pages: string[];
  base: number;
  volume: number;
}

export async function seedDemoData(
  app: INestApplicationContext,
  accountId: number,
): Promise<DemoDataSummary> {
  const now = app.get(Clock).now();
  const today = parsePlainDate(plainDate(now))!;
  const rnd = prng(20_261_121);
  const seed: DemoSeed = {
    app,
    accountId,
    now,
    day: (back) => plainDate(addDays(today, -back)),
    rnd,
    pick: (xs) => xs[Math.floor(rnd() * xs.length)],
  };
  // The order matters: every step draws from the same PRNG.
  const { rankProjects, keywords, checks } = await seedRankTracking(seed);
  const gscRows = await seedSearchConsole(seed);
  const aiScans = await seedAiVisibility(seed);
  return { rankProjects, keywords, checks, gscRows, aiScans };
}

// ---- rank tracking: 30 + 20 keywords, 120 days -------------------------------------

/** Two rank projects with their keywords and 120 days of checks (one keyword never checked). */
async function seedRankTracking(
  seed: DemoSeed,
): Promise<Pick<DemoDataSummary, 'rankProjects' | 'keywords' | 'checks'>> {
  const rank = seed.app.get(RankRepository);
  const summary = { rankProjects: 0, keywords: 0, checks: 0 };
  const projects = [
    {
      domain: 'demo-outdoor.com',
      name: 'Outdoor Store',
      words: OUTDOOR.flatMap((w, i) => (i < 15 ? [w, `${MODIFIERS[i % 6]} ${w}`] : [])),
    },
    { domain: 'demo-recipes.com', name: 'Recipe Blog', words: RECIPES.map((w) => `${w} recipe`) },
  ];
  for (const [pi, p] of projects.entries()) {
    const project = (await rank.upsertProject(
      seed.accountId,
      // The first project is checked by the worker every day (rank collection: sandbox SERPs).
      { domain: p.domain, name: p.name, tracking: pi === 0 },
      seed.now,
    ))!.row;
    summary.rankProjects++;
    for (const [ki, word] of p.words.entries()) {
      const keywordId = await upsertDemoKeyword(seed, project.id, ki, word);
      summary.keywords++;
      // The last keyword of the second project was just added: never checked.
      if (pi === 1 && ki === p.words.length - 1) continue;
      const checks = demoRankChecks(seed, p.domain, ki, word);
      summary.checks += (await rank.storeChecks(keywordId, checks, seed.now)) ?? 0;
    }
  }
  return summary;
}

/** Upserts the `ki`-th keyword of a project (every 4th on mobile, every 7th in GB); its id. */
async function upsertDemoKeyword(
  { app, now, rnd }: DemoSeed,
  projectId: number,
  ki: number,
  word: string,
): Promise<number> {
  const mobile = ki % 4 === 3;
  const kw = (await app.get(RankRepository).upsertKeyword(
    projectId,
    {
      keyword: word,
      country: ki % 7 === 6 ? 'GB' : 'US',
      language: 'en',
      device: mobile ? 'mobile' : 'desktop',
      status: 'active',
      difficulty: Math.floor(rnd() * 90) + 5,
      search_volume: Math.round(rnd() * 40) * 250 + 50,
      cpc: Math.round(rnd() * 400) / 100,
    },
    now,
  ))!.row;
  return kw.id;
}

/** 120 daily checks of one keyword: a drifting position with gaps, GSC numbers and SERP features. */
function demoRankChecks(
  { day, rnd }: DemoSeed,
  domain: string,
  ki: number,
  word: string,
): RankCheckDto[] {
  const featureOdds = SERP_FEATURES.map(() => rnd() * 0.5);
  let pos = 3 + rnd() * 60;
  const drift = (rnd() - 0.6) * 0.25; // most keywords slowly improve
  const checks: RankCheckDto[] = [];
  for (let back = 119; back >= 0; back--) {
    pos = Math.min(100, Math.max(1, pos + drift + (rnd() - 0.5) * 4));
    const unranked = rnd() < 0.06 || (ki % 9 === 4 && back > 100); // some gaps, one late entrant
    const position = unranked ? null : Math.round(pos);
    const impressions = position === null ? 0 : Math.round(2000 / position + rnd() * 50);
    const clicks =
      position === null
        ? 0
        : Math.round(impressions * Math.min(0.35, 0.4 / position) * (0.5 + rnd()));
    const check: RankCheckDto = {
      check_date: day(back),
      position,
      landing_page: position === null ? null : `https://${domain}/${slug(word)}`,
      gsc_clicks: clicks,
      gsc_impressions: impressions,
      gsc_ctr: impressions ? Math.round((clicks / impressions) * 10_000) / 100 : null,
      gsc_average_position: position === null ? null : Math.round((position + rnd() * 2) * 10) / 10,
    };
    SERP_FEATURES.forEach((f, i) => (check[f] = rnd() < featureOdds[i]));
    checks.push(check);
  }
  return checks;
}

// ---- Search Console: 90 days ------------------------------------------------------

/** One sandbox GSC property with 90 days of rows, stored in batches; the rows stored. */
async function seedSearchConsole(seed: DemoSeed): Promise<number> {
  const gsc = seed.app.get(GscIngestionRepository);
  const property = (await gsc.upsertProperty(
    seed.accountId,
    {
      property_uri: 'sc-domain:demo-outdoor.com',
      display_name: 'Outdoor Store (domain)',
      google_email: 'seo@demo-outdoor.com',
      status: 'active',
      is_sandbox: true,
      last_synced_at: `${plainDate(seed.now)} 05:00:00`,
      last_sync_status: 'success',
    },
    seed.now,
  ))!.row;
  const combos = demoQueryCombos(seed);
  let stored = 0;
  let batch: GscRowDto[] = [];
  const flush = async () => {
    if (batch.length) stored += (await gsc.storeRows(property.id, batch)) ?? 0;
    batch = [];
  };
  for (let back = 89; back >= 0; back--) {
    batch.push(...demoGscRowsOfDay(seed, combos, back));
    if (batch.length >= 8_000) await flush();
  }
  await flush();
  return stored;
}

/** Six queries per outdoor product, each landing on its product page (every 3rd also on the guide). */
function demoQueryCombos({ rnd }: DemoSeed): DemoQueryCombo[] {
  const queries = OUTDOOR.flatMap((w) => [
    w,
    `best ${w}`,
    `${w} sale`,
    `${w} review`,
    `how to choose ${w}`,
    `${w} near me`,
  ]);
  return queries.map((q, i) => ({
    query: q,
    pages: [`https://demo-outdoor.com/${slug(OUTDOOR[i % OUTDOOR.length])}`].concat(
      i % 3 === 0 ? ['https://demo-outdoor.com/blog/guide'] : [],
    ),
    base: 1 + rnd() * 30,
    volume: 20 + rnd() * 400,
  }));
}

/** The GSC rows of the day `back` days ago: about half of the query × page × device slices. */
function demoGscRowsOfDay(
  { day, rnd, pick }: DemoSeed,
  combos: DemoQueryCombo[],
  back: number,
): GscRowDto[] {
  const rows: GscRowDto[] = [];
  for (const c of combos) {
    for (const page of c.pages) {
      for (const device of ['desktop', 'mobile']) {
        if (rnd() < 0.45) continue; // not every slice has impressions every day
        const country = rnd() < 0.8 ? 'usa' : pick(['gbr', 'can', 'aus']);
        const position = Math.round(Math.max(1, c.base + (rnd() - 0.5) * 6) * 10) / 10;
        const impressions = Math.max(
          1,
          Math.round((c.volume * (device === 'mobile' ? 1.3 : 1)) / position),
        );
        const clicks = Math.round(impressions * Math.min(0.3, 0.3 / position) * rnd() * 2);
        const appearance = page.includes('/blog/') && rnd() < 0.5 ? 'FAQ_RICH_RESULT' : '';
        rows.push({
          date: day(back),
          query: c.query,
          page,
          country,
          device,
          search_appearance: appearance,
          clicks: Math.min(clicks, impressions),
          impressions,
          position,
        });
      }
    }
  }
  return rows;
}

// ---- AI visibility: one scanned weekly (25 competitors), one never scanned --------------

/** Two AI-visibility projects; the first gets 8 weekly scans against 25 rivals. The scans stored. */
async function seedAiVisibility(seed: DemoSeed): Promise<number> {
  const scannedId = await upsertDemoAiProjects(seed);
  const { rnd, pick } = seed;
  const rivals: DemoRival[] = Array.from({ length: 25 }, (_, i) => ({
    name: `${pick(['Summit', 'Trail', 'Peak', 'Ridge', 'Alpine', 'Canyon'])} ${pick(['Gear', 'Outfitters', 'Supply', 'Co', 'Sports'])} ${i + 1}`,
    domain: `rival-${i + 1}.example`,
    strength: 5 + rnd() * 60,
  }));
  let scans = 0;
  let score = 42 + rnd() * 5;
  for (let week = 7; week >= 0; week--) {
    score = Math.min(95, Math.max(5, score + (rnd() - 0.35) * 6));
    await seed.app
      .get(AiVisibilityService)
      .storeScan(scannedId, demoScan(seed, rivals, score, week), seed.now);
    scans++;
  }
  return scans;
}

/** Upserts the outdoor (scanned) and recipe (never scanned) projects; the outdoor one's id. */
async function upsertDemoAiProjects({ app, accountId, now }: DemoSeed): Promise<number> {
  const ai = app.get(AiVisibilityRepository);
  const scanned = (await ai.upsertProject(
    accountId,
    {
      domain: 'demo-outdoor.com',
      brand_name: 'Outdoor Store',
      target_country: 'US',
      target_language: 'en',
      ai_engine: 'chatgpt',
      tracking_frequency: 'weekly',
      status: 'active',
    },
    now,
  ))!.row;
  await ai.upsertProject(
    accountId,
    {
      domain: 'demo-recipes.com',
      brand_name: 'Recipe Blog',
      target_country: 'US',
      target_language: 'en',
      ai_engine: 'perplexity',
      tracking_frequency: 'weekly',
      status: 'active',
    },
    now,
  );
  return scanned.id;
}

/** The scan of `week` weeks ago at visibility `score`, with every rival's mentions. */
function demoScan(
  { day, rnd }: DemoSeed,
  rivals: DemoRival[],
  score: number,
  week: number,
): ScanDto {
  const prompts = 120;
  const brandMentions = Math.round(prompts * (score / 100) * 0.8);
  const competitors: CompetitorDto[] = rivals.map((r) => ({
    competitor_name: r.name,
    competitor_domain: r.domain,
    mention_count: Math.max(0, Math.round(r.strength * (0.8 + rnd() * 0.4))),
    visibility_score: Math.round(Math.min(100, r.strength * 1.2) * 10) / 10,
    avg_position: Math.round((1 + rnd() * 6) * 10) / 10,
  }));
  return {
    snapshot_date: day(week * 7),
    visibility_score: Math.round(score * 10) / 10,
    geo_score: Math.round((score * 0.9 + rnd() * 8) * 10) / 10,
    mention_rate: Math.round((brandMentions / prompts) * 1000) / 10,
    avg_position: Math.round((2 + rnd() * 3) * 10) / 10,
    sentiment_avg: Math.round((0.2 + rnd() * 0.6) * 100) / 100,
    citation_rate: Math.round(rnd() * 300) / 10,
    competition_score: Math.round((50 + rnd() * 30) * 10) / 10,
    prompts_evaluated: prompts,
    brand_mentions: brandMentions,
    competitors,
  };
}
