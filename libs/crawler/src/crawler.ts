import { issue, pageRules, siteRules } from './audit-rules';
import { type ResolvedConfig, resolveConfig } from './crawl-config';
import { CrawlError, isCrawlError } from './crawl-error';
import { CrawlSession } from './crawl-session';
import { brokenResources, RESOURCE_CONCURRENCY } from './resource-check';
import type { RobotsPolicy } from './robots';
import { geoChecks, geoScore, issueCounts, ruleSummary, totalScore } from './scoring';
import type { AuditOptions, AuditResult } from './types';

/** Why the crawl stopped early: the caller's signal, or the time limit. */
interface StopState {
  cancelled: boolean;
  timedOut: boolean;
}

type LlmsTxt = { present: boolean; detail: string };

/** What the crawl leaves for the result besides the session's records. */
interface Crawled {
  robots: RobotsPolicy;
  llms: Promise<LlmsTxt> | null;
}

/**
 * Crawls one site and audits it. Rejects with CrawlError only when the start page cannot be
 * fetched at all (UNREACHABLE, PRIVATE_ADDRESS, TIMEOUT), the start URL is invalid
 * (INVALID_URL) or the signal fires (CANCELLED). Everything else is reported as findings.
 */
export async function runAudit(options: AuditOptions): Promise<AuditResult> {
  const cfg = resolveConfig(options);
  const startedAt = new Date();
  if (cfg.signal?.aborted) throw new CrawlError('CANCELLED', 'cancelled before start');
  const s = new CrawlSession(cfg);
  const stop: StopState = { cancelled: false, timedOut: false };
  const onAbort = () => {
    stop.cancelled = true;
    s.stop();
  };
  cfg.signal?.addEventListener('abort', onAbort, { once: true });
  const deadline = setTimeout(() => {
    stop.timedOut = true;
    s.stop();
  }, cfg.timeLimitMs);
  try {
    const crawled = await crawlSite(s, cfg, stop);
    if (stop.cancelled) throw new CrawlError('CANCELLED', 'crawl cancelled');
    s.commitLeftovers();
    return await auditResult(s, cfg, crawled, stop.timedOut, startedAt);
  } catch (err) {
    if (stop.cancelled) throw new CrawlError('CANCELLED', 'crawl cancelled');
    if (stop.timedOut && isCrawlError(err) && err.code === 'CANCELLED')
      throw new CrawlError('TIMEOUT', `start page not fetched within ${cfg.timeLimitMs} ms`);
    throw err;
  } finally {
    clearTimeout(deadline);
    cfg.signal?.removeEventListener('abort', onAbort);
    s.stop();
    s.fetcher.close();
  }
}

/**
 * The start URL's checks (address, robots.txt), then the crawl from the start page unless
 * robots.txt forbids it, until the session drains.
 */
async function crawlSite(s: CrawlSession, cfg: ResolvedConfig, stop: StopState): Promise<Crawled> {
  const start = new URL(cfg.startUrl);
  s.startOrigin = start.origin;
  s.adoptSite(cfg.startUrl);
  await s.precheck(start.hostname);
  const robots = await s.robotsFor(start.origin);
  if (robots.error && robots.firstHop) throw robots.error;
  s.markSeen(cfg.startUrl);
  let llms: Promise<LlmsTxt> | null = null;
  if (!(await s.robotsAllow(cfg.startUrl))) {
    if (robots.mode === 'parsed') s.siteIssues.push(issue('blocked_by_robots', cfg.startUrl));
  } else {
    ({ llms } = await crawlFromStart(s, cfg, stop));
  }
  await s.drained();
  if (s.fatal) throw s.fatal;
  return { robots, llms };
}

/**
 * Fetches the start page (a failure there fails the audit), adopts the site it lands on and
 * starts its llms.txt check, then runs the workers. The llms.txt check, when started (in an
 * object: a returned promise would be awaited with this one).
 */
async function crawlFromStart(
  s: CrawlSession,
  cfg: ResolvedConfig,
  stop: StopState,
): Promise<{ llms: Promise<LlmsTxt> | null }> {
  const entry = s.enqueueStart(cfg.startUrl);
  entry.outcome = await s.fetchEntry(entry, true);
  if (entry.outcome.aborted && stop.timedOut)
    throw new CrawlError('TIMEOUT', `start page not fetched within ${cfg.timeLimitMs} ms`);
  if (entry.outcome.error && !entry.outcome.aborted) throw entry.outcome.error;
  let llms: Promise<LlmsTxt> | null = null;
  if (entry.outcome.response) {
    const finalUrl = entry.outcome.hops[entry.outcome.hops.length - 1];
    s.adoptSite(finalUrl); // the start page may redirect to https, www or a new domain
    llms = s.llmsTxt(new URL(finalUrl).origin);
  }
  await s.commitStart(entry);
  await Promise.all(Array.from({ length: cfg.concurrency }, () => s.worker()));
  return { llms };
}

/** The rules run over the crawled pages, the scores and the GEO checks: the audit. */
async function auditResult(
  s: CrawlSession,
  cfg: ResolvedConfig,
  crawled: Crawled,
  timedOut: boolean,
  startedAt: Date,
): Promise<AuditResult> {
  const llmsResult = crawled.llms
    ? await crawled.llms.catch(() => ({ present: false, detail: 'llms.txt not checked' }))
    : { present: false, detail: 'llms.txt not checked' };
  const pages = s.records.map((r) => r.finding);
  for (const r of s.records) r.finding.issues.push(...pageRules(r, cfg));
  siteRules(s.records);
  // Images, scripts and stylesheets: checked once per crawl through the same guarded fetcher,
  // within the crawl's time limit (a check cut by it is unknown, not reported).
  await brokenResources(
    s.records,
    (url, method) => s.fetcher.get(url, () => false, s.ctl.signal, undefined, method),
    {
      cap: cfg.maxResourceChecks,
      concurrency: Math.min(RESOURCE_CONCURRENCY, cfg.concurrency),
    },
  );
  const issues = [...pages.flatMap((p) => p.issues), ...s.siteIssues];
  const finalStart = s.records[0]?.finding.finalUrl ?? cfg.startUrl;
  const startRobots = s.robotsResolved.get(new URL(finalStart).origin) ?? crawled.robots;
  const checks = geoChecks({
    startUrl: finalStart,
    robots: startRobots,
    llmsTxt: llmsResult,
    records: s.records,
  });
  return {
    startUrl: cfg.startUrl,
    domain: new URL(finalStart).hostname.replace(/^www\./, ''),
    pagesCrawled: pages.length,
    pages,
    issues,
    issueCounts: issueCounts(issues),
    ruleSummary: ruleSummary(issues),
    totalScore: totalScore(pages, s.siteIssues),
    geoScore: geoScore(checks),
    geo: { checks },
    truncated: timedOut || s.moreUrlsThanBudget,
    truncatedReason: timedOut ? 'time_limit' : s.moreUrlsThanBudget ? 'max_pages' : null,
    startedAt,
    finishedAt: new Date(),
  };
}
