import { INestApplicationContext } from '@nestjs/common';
import { Clock } from '@app/core';
import { AccountsService } from '@app/accounts';
import {
  AuditIssue,
  AuditResult,
  GeoCheck,
  PageFinding,
  geoScore,
  issue,
  issueCounts,
  ruleSummary,
  shareCheck,
  totalScore,
} from '@app/crawler';
import { JobLifecycleService, JobRecordsRepository, newAuditId, newJobId } from '@app/site-audit';
import { RankRepository } from '../rank/rank.repository';
import { AiVisibilityRepository } from '../ai-visibility/ai-visibility.repository';
import { DEMO_SAMPLE_TARGETS } from '../ops/demo-sample-targets';

/**
 * The demo rows the samples need besides the demo data (demo-data.ts): a spare rank project,
 * a spare keyword and a spare AI-visibility project for the three delete samples (made again
 * by each seed once a sample removed them), room for the create sample's AI-visibility
 * project (the Pro plan allows one; the demo has four), and a complete site audit for the job
 * sample (recorded once, see seedDemoAudit).
 */
export async function seedDemoSampleTargets(
  app: INestApplicationContext,
  accountId: number,
): Promise<void> {
  const now = app.get(Clock).now();
  const t = DEMO_SAMPLE_TARGETS;
  await app.get(AccountsService).update(accountId, { overrides: { ai_visibility_projects: 10 } });
  const rank = app.get(RankRepository);
  await rank.upsertProject(
    accountId,
    { domain: t.spareDomain, name: 'Spare (the delete sample removes it)', tracking: false },
    now,
  );
  const recipes = (await rank.listProjects(accountId)).find(
    (p) => p.domain === t.rankProjectDomain,
  );
  if (recipes)
    await rank.upsertKeyword(
      recipes.project_id,
      { keyword: t.spareRankKeyword, country: 'US', language: 'en', device: 'desktop' },
      now,
    );
  await app.get(AiVisibilityRepository).upsertProject(
    accountId,
    {
      domain: t.spareDomain,
      brand_name: 'Spare (the delete sample removes it)',
      target_country: 'US',
      target_language: 'en',
      ai_engine: 'chatgpt',
      tracking_frequency: 'weekly',
      status: 'active',
    },
    now,
  );
  await seedDemoAudit(app, accountId, now);
}

/**
 * The demo's site audit: unless the account already has a complete audit, a recorded audit
 * of the made-up outdoor store (five pages, a few typical findings, scored by the crawler's
 * own scoring) goes through the job lifecycle as a crawl's result would: the job is created
 * (one crawl of the month, five pages of the budget), run and completed with its report.
 * The demo has no real site to crawl, and a seed must not depend on the network.
 */
async function seedDemoAudit(
  app: INestApplicationContext,
  accountId: number,
  now: Date,
): Promise<void> {
  const lifecycle = app.get(JobLifecycleService);
  if ((await lifecycle.jobRecords(accountId, { status: 'complete', limit: 1, offset: 0 })).total)
    return;
  const accounts = app.get(AccountsService);
  const limits = accounts.limitsOf((await accounts.find(accountId))!);
  const jobId = newJobId();
  const result = demoAuditResult(now);
  const created = await lifecycle.createQueued({
    jobId,
    accountId,
    url: result.startUrl,
    depth: 3,
    requestedPages: result.pagesCrawled,
    crawlsPerMonth: limits.site_audit_crawls_per_month,
    pagesPerCrawl: limits.site_audit_pages_per_crawl,
    rollingBudget: limits.site_audit_rolling_page_budget,
    at: app.get(Clock).statementTime(),
    requestId: null,
    now,
    deadlineAt: new Date(now.getTime() + 3_600_000),
  });
  if (!created.ok) return; // the month's crawls are used up: the job sample keeps its example id
  await app.get(JobRecordsRepository).markRunning(jobId, now);
  await lifecycle.completeWithAudit(
    { jobId, accountId, maxPages: created.maxPages, depth: 3 },
    newAuditId(),
    result,
    now,
  );
}

/** The recorded audit of https://demo-outdoor.com/ (five pages). */
export function demoAuditResult(now: Date): AuditResult {
  const base = DEMO_SAMPLE_TARGETS.auditUrl;
  const page = (
    path: string,
    depth: number,
    title: string,
    words: number,
    description: string | null,
    issues: AuditIssue[],
  ): PageFinding => ({
    url: `${base}${path}`,
    finalUrl: `${base}${path}`,
    status: 200,
    depth,
    title,
    metaDescription: description,
    h1Count: 1,
    wordCount: words,
    responseMs: 180 + words / 10,
    bytes: 9000 + words * 7,
    canonical: `${base}${path}`,
    noindex: false,
    issues,
    contentType: 'text/html',
    redirects: 0,
    truncated: false,
    structuredDataTypes: path === '' ? ['Organization'] : [],
  });
  const pages = [
    page('', 0, 'Outdoor Store: tents, boots and trail gear', 640, 'Gear for hiking and camping.', [
      issue('broken_resource', base, `${base}logo-dark.png answered 404`),
    ]),
    page('tents', 1, 'Tents', 420, 'Backpacking and family tents.', []),
    page('hiking-boots', 1, 'Hiking boots', 380, null, [
      issue('missing_meta_description', `${base}hiking-boots`),
    ]),
    page(
      'blog/how-to-choose-a-backpacking-tent-for-three-season-trips',
      2,
      'How to choose a backpacking tent for three-season trips: weight, space and price',
      1450,
      'Weight, space and price: what matters in a backpacking tent.',
      [
        issue(
          'title_too_long',
          `${base}blog/how-to-choose-a-backpacking-tent-for-three-season-trips`,
          '82 characters',
        ),
      ],
    ),
    page('contact', 1, 'Contact', 120, 'Write to us.', [
      issue('thin_content', `${base}contact`, '120 words'),
      issue('broken_internal_link', `${base}contact`, `${base}returns answered 404`),
    ]),
  ];
  const issues = pages.flatMap((p) => p.issues);
  // The GEO checks as the crawler words them (scoring.ts), over the five pages.
  const checks: GeoCheck[] = [
    shareCheck('ai_crawlers_allowed', 20, 10, 10, 1, 'AI crawlers allowed by robots.txt'),
    { check: 'llms_txt', weight: 10, passed: false, score: 0, detail: 'no /llms.txt (404)' },
    shareCheck('structured_data', 15, 1, 5, 0.5, 'pages with JSON-LD'),
    shareCheck(
      'heading_structure',
      10,
      5,
      5,
      0.8,
      'pages with one h1 and no skipped heading levels',
    ),
    shareCheck(
      'question_headings_or_faq',
      10,
      1,
      5,
      0.2,
      'pages with question headings or FAQPage/QAPage markup',
    ),
    shareCheck('author_and_date', 10, 1, 5, 0.5, 'pages with author and date metadata'),
    shareCheck('meta_descriptions', 10, 4, 5, 0.9, 'pages with a meta description'),
    shareCheck('content_depth', 15, 4, 5, 0.5, 'pages with ≥ 300 words'),
  ];
  return {
    startUrl: base,
    domain: 'demo-outdoor.com',
    pagesCrawled: pages.length,
    pages,
    issues,
    issueCounts: issueCounts(issues),
    ruleSummary: ruleSummary(issues),
    totalScore: totalScore(pages, []),
    geoScore: geoScore(checks),
    geo: { checks },
    truncated: false,
    truncatedReason: null,
    startedAt: new Date(now.getTime() - 42_000),
    finishedAt: now,
  };
}
