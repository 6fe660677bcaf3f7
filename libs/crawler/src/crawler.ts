import { issue, pageRules, siteRules } from './audit-rules';
import { resolveConfig } from './crawl-config';
import { CrawlError, isCrawlError } from './crawl-error';
import { CrawlSession } from './crawl-session';
import { geoChecks, geoScore, issueCounts, ruleSummary, totalScore } from './scoring';
import type { AuditOptions, AuditResult } from './types';

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
  let cancelled = false;
  let timedOut = false;
  const onAbort = () => {
    cancelled = true;
    s.stop();
  };
  cfg.signal?.addEventListener('abort', onAbort, { once: true });
  const deadline = setTimeout(() => {
    timedOut = true;
    s.stop();
  }, cfg.timeLimitMs);
  let llms: Promise<{ present: boolean; detail: string }> | null = null;
  try {
    const start = new URL(cfg.startUrl);
    s.startOrigin = start.origin;
    s.adoptSite(cfg.startUrl);
    await s.precheck(start.hostname);
    const robots = await s.robotsFor(start.origin);
    if (robots.error && robots.firstHop) throw robots.error;
    s.markSeen(cfg.startUrl);
    if (!(await s.robotsAllow(cfg.startUrl))) {
      if (robots.mode === 'parsed') s.siteIssues.push(issue('blocked_by_robots', cfg.startUrl));
    } else {
      const entry = s.enqueueStart(cfg.startUrl);
      entry.outcome = await s.fetchEntry(entry, true);
      if (entry.outcome.aborted && timedOut)
        throw new CrawlError('TIMEOUT', `start page not fetched within ${cfg.timeLimitMs} ms`);
      if (entry.outcome.error && !entry.outcome.aborted) throw entry.outcome.error;
      if (entry.outcome.response) {
        const finalUrl = entry.outcome.hops[entry.outcome.hops.length - 1];
        s.adoptSite(finalUrl); // the start page may redirect to https, www or a new domain
        llms = s.llmsTxt(new URL(finalUrl).origin);
      }
      await s.commitStart(entry);
      await Promise.all(Array.from({ length: cfg.concurrency }, () => s.worker()));
    }
    await s.drained();
    if (s.fatal) throw s.fatal;
    if (cancelled) throw new CrawlError('CANCELLED', 'crawl cancelled');
    s.commitLeftovers();
    const llmsResult = llms
      ? await llms.catch(() => ({ present: false, detail: 'llms.txt not checked' }))
      : { present: false, detail: 'llms.txt not checked' };

    const pages = s.records.map((r) => r.finding);
    for (const r of s.records) r.finding.issues.push(...pageRules(r, cfg));
    siteRules(s.records);
    const issues = [...pages.flatMap((p) => p.issues), ...s.siteIssues];
    const finalStart = s.records[0]?.finding.finalUrl ?? cfg.startUrl;
    const startRobots = s.robotsResolved.get(new URL(finalStart).origin) ?? robots;
    const checks = geoChecks({
      startUrl: finalStart,
      robots: startRobots,
      llmsTxt: llmsResult,
      records: s.records,
    });
    const truncated = timedOut || s.moreUrlsThanBudget;
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
      truncated,
      truncatedReason: timedOut ? 'time_limit' : s.moreUrlsThanBudget ? 'max_pages' : null,
      startedAt,
      finishedAt: new Date(),
    };
  } catch (err) {
    if (cancelled) throw new CrawlError('CANCELLED', 'crawl cancelled');
    if (timedOut && isCrawlError(err) && err.code === 'CANCELLED')
      throw new CrawlError('TIMEOUT', `start page not fetched within ${cfg.timeLimitMs} ms`);
    throw err;
  } finally {
    clearTimeout(deadline);
    cfg.signal?.removeEventListener('abort', onAbort);
    s.stop();
    s.fetcher.close();
  }
}
