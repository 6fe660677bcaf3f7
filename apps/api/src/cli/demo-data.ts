import { INestApplicationContext } from '@nestjs/common';
import { Clock, addDays, parsePlainDate, plainDate, prng } from '@app/core';
import { SERP_FEATURES } from '@app/database';
import { GscIngestionRepository } from '@app/database';
import { SANDBOX_GSC_MODIFIERS, SANDBOX_GSC_PRODUCTS } from '@app/providers';
import { RankRepository } from '../rank/rank.repository';
import { RankCheckDto } from '../rank/rank-ingestion.dto';
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
 * - 1 sandbox GSC property on the outdoor store's domain, synced by the worker (docs/gsc-sync.md:
 *   16 months of generated query × page × country × device facts, a few hundred a day, whose
 *   queries include the store's tracked keywords, so their checks show Search Console figures)
 * - 2 AI-visibility projects: one with 8 weekly scans and 25 competitors, one never scanned
 */
interface DemoDataSummary {
  rankProjects: number;
  keywords: number;
  checks: number;
  gscProperties: number;
  aiScans: number;
}

/** The outdoor store's products and keyword prefixes: the sandbox Search Console's queries. */
const OUTDOOR = SANDBOX_GSC_PRODUCTS;
const MODIFIERS = SANDBOX_GSC_MODIFIERS;
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
  const gscProperties = await seedSearchConsole(seed);
  const aiScans = await seedAiVisibility(seed);
  return { rankProjects, keywords, checks, gscProperties, aiScans };
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

/** 120 daily checks of one keyword: a drifting position with gaps and SERP features. */
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
    // No Search Console figures: a check takes them from the synced facts of its date.
    const check: RankCheckDto = {
      check_date: day(back),
      position,
      landing_page: position === null ? null : `https://${domain}/${slug(word)}`,
    };
    SERP_FEATURES.forEach((f, i) => (check[f] = rnd() < featureOdds[i]));
    checks.push(check);
  }
  return checks;
}

// ---- Search Console: a sandbox property the worker syncs ---------------------------

/**
 * The outdoor store's sandbox Search Console property (no Google connection): due at once,
 * the worker's sync backfills it from the sandbox source (docs/gsc-sync.md). Re-running the
 * seed keeps its data and its sync progress. The properties added (1).
 */
async function seedSearchConsole(seed: DemoSeed): Promise<number> {
  const added = await seed.app.get(GscIngestionRepository).addSyncedProperty(
    seed.accountId,
    {
      propertyUri: 'sc-domain:demo-outdoor.com',
      displayName: 'Outdoor Store (domain)',
      googleEmail: 'seo@demo-outdoor.com',
      connectionId: null,
      permissionLevel: 'siteOwner',
      isSandbox: true,
    },
    seed.now,
  );
  return added ? 1 : 0;
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
