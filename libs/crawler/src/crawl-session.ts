import { setMaxListeners } from 'node:events';
import { type AddressPolicy, buildAddressPolicy, resolveAllowed } from './address-guard';
import { issue, type PageRecord } from './audit-rules';
import { CrawlError, isCrawlError } from './crawl-error';
import { type ExtractedPage, extractPage } from './html-extract';
import { type FetchResult, HttpFetcher } from './http-fetcher';
import {
  fetchRobots,
  productToken,
  ROBOTS_BODY_LIMIT,
  type RobotsPolicy,
  robotsAllows,
} from './robots';
import { TrapGuard } from './trap-guard';
import type { AuditIssue, PageFinding } from './types';
import { isSameSite, normalizeUrl, siteKey } from './url-normalize';
import type { ResolvedConfig } from './crawl-config';

export const MAX_REDIRECTS = 5;
const LLMS_MAX_BYTES = 256 * 1024;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const isHtml = (ct: string | null) => ct !== null && HTML_TYPES.has(ct);

interface Outcome {
  hops: string[];
  response: FetchResult | null;
  error: CrawlError | null;
  redirectProblem: 'loop' | 'limit' | null;
  extracted: ExtractedPage | null;
  /** Fetch interrupted by the time limit / cancellation: not reported. */
  aborted: boolean;
  /** Not fetched because its URL was already analysed via a redirect. */
  skipped: boolean;
}

interface Entry {
  url: string;
  depth: number;
  outcome: Outcome | null;
  /** Turned into a record (or dropped) already. */
  recorded?: boolean;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** One crawl: a deterministic BFS (links are expanded in queue order, whatever the fetch order). */
export class CrawlSession {
  readonly policy: AddressPolicy;
  readonly fetcher: HttpFetcher;
  readonly ctl = new AbortController();
  readonly token: string;
  site = '';
  readonly queue: Entry[] = [];
  readonly records: PageRecord[] = [];
  readonly siteIssues: AuditIssue[] = [];
  robotsByOrigin = new Map<string, Promise<RobotsPolicy>>();
  readonly robotsResolved = new Map<string, RobotsPolicy>();
  private readonly seen = new Set<string>();
  private readonly claimed = new Set<string>();
  private readonly trapPatterns = new Set<string>();
  private readonly hostTurns = new Map<string, Promise<void>>();
  private readonly lastStart = new Map<string, number>();
  private readonly trap: TrapGuard;
  private nextFetch = 0;
  private committed = 0;
  private dropped = 0;
  private waiters: Array<() => void> = [];
  private pumpChain: Promise<void> = Promise.resolve();
  stopped = false;
  fatal: unknown = null;
  moreUrlsThanBudget = false;

  constructor(readonly cfg: ResolvedConfig) {
    this.policy = buildAddressPolicy(cfg.allowPrivateNetworks, cfg.extraAllowedAddress);
    this.fetcher = new HttpFetcher({
      userAgent: cfg.userAgent,
      policy: this.policy,
      timeoutMs: cfg.requestTimeoutMs,
      maxBodyBytes: cfg.maxBodyBytes,
      concurrency: cfg.concurrency,
      tlsCa: cfg.tlsCa,
    });
    this.token = productToken(cfg.userAgent);
    // Every in-flight request and politeness sleep listens on the crawl's abort signal.
    setMaxListeners(cfg.concurrency * 4 + 16, this.ctl.signal);
    this.trap = new TrapGuard(cfg.maxUrlLength, cfg.maxQueryVariants, cfg.maxUrlsPerPattern);
  }

  get pagesPlanned(): number {
    return this.queue.length - this.dropped;
  }

  // ---------- fetching ----------

  /**
   * Per-host politeness: requests to one host start one after another, each at least `delay` ms
   * after the previous one actually started (a per-host promise chain, so event-loop stalls never
   * let two starts bunch up). delay = max(politenessDelayMs, robots.txt Crawl-delay capped at 2 s).
   */
  private polite(url: string): Promise<void> {
    const u = new URL(url);
    const robots = this.robotsResolved.get(u.origin);
    const crawlDelay = robots?.robot?.getCrawlDelay(this.token);
    const delay = Math.max(
      this.cfg.politenessDelayMs,
      crawlDelay ? Math.min(crawlDelay, 2) * 1000 : 0,
    );
    if (delay <= 0) return Promise.resolve();
    const turn = (this.hostTurns.get(u.host) ?? Promise.resolve()).then(async () => {
      const wait = (this.lastStart.get(u.host) ?? -Infinity) + delay - performance.now();
      if (wait > 0 && !this.ctl.signal.aborted) await sleep(Math.ceil(wait), this.ctl.signal);
      this.lastStart.set(u.host, performance.now());
    });
    this.hostTurns.set(u.host, turn);
    return turn;
  }

  async get(
    url: string,
    read: (ct: string | null) => boolean,
    maxBytes?: number,
  ): Promise<FetchResult> {
    await this.polite(url);
    if (this.ctl.signal.aborted) throw new CrawlError('CANCELLED', 'cancelled');
    return this.fetcher.get(url, read, this.ctl.signal, maxBytes);
  }

  robotsFor(origin: string): Promise<RobotsPolicy> {
    let p = this.robotsByOrigin.get(origin);
    if (!p) {
      p = fetchRobots(origin, (u) => this.get(u, () => true, ROBOTS_BODY_LIMIT)).then((policy) => {
        this.robotsResolved.set(origin, policy);
        // A host that cannot be reached at all is reported by its pages (fetch_failed) or fails
        // the crawl (start host), not as a robots.txt problem.
        if (policy.mode === 'disallow_all' && !(policy.error && policy.firstHop)) {
          this.siteIssues.push(
            issue('robots_txt_unreachable', `${origin}/robots.txt`, policy.detail),
          );
        }
        return policy;
      });
      this.robotsByOrigin.set(origin, p);
    }
    return p;
  }

  startOrigin = '';

  async robotsAllow(url: string): Promise<boolean> {
    return robotsAllows(await this.robotsFor(new URL(url).origin), url, this.token);
  }

  async llmsTxt(origin: string): Promise<{ present: boolean; detail: string }> {
    try {
      const res = await this.get(
        `${origin}/llms.txt`,
        (ct) => ct === null || ct.startsWith('text/'),
        LLMS_MAX_BYTES,
      );
      const ok =
        res.status === 200 &&
        res.contentType !== 'text/html' &&
        !!res.text &&
        res.text.trim() !== '';
      return {
        present: ok,
        detail: ok
          ? `${origin}/llms.txt (${res.bytes} bytes)`
          : `${origin}/llms.txt answered HTTP ${res.status}${res.contentType ? ` ${res.contentType}` : ''}`,
      };
    } catch (err) {
      return {
        present: false,
        detail: `${origin}/llms.txt not reachable (${isCrawlError(err) ? err.code : 'error'})`,
      };
    }
  }

  /** GET with redirects (≤ 5, every hop re-checked by the SSRF guard and robots.txt). */
  async fetchEntry(entry: Entry, isStart: boolean): Promise<Outcome> {
    const out: Outcome = {
      hops: [entry.url],
      response: null,
      error: null,
      redirectProblem: null,
      extracted: null,
      aborted: false,
      skipped: false,
    };
    if (!(await this.followRedirects(out, isStart))) return out;
    const r = out.response;
    if (r && r.text !== null && r.status >= 200 && r.status < 300 && isHtml(r.contentType)) {
      out.extracted = extractPage(r.text);
      r.text = null; // keep memory flat
    }
    return out;
  }

  /**
   * Fetches `out.hops[0]` and the redirects it may follow, into `out`. False when a hop could
   * not be fetched (`out.error` set, no response).
   */
  private async followRedirects(out: Outcome, isStart: boolean): Promise<boolean> {
    let url = out.hops[0];
    for (;;) {
      let response: FetchResult;
      try {
        response = out.response = await this.get(url, isHtml);
      } catch (err) {
        const e = isCrawlError(err) ? err : new CrawlError('UNREACHABLE', String(err));
        if (this.ctl.signal.aborted) out.aborted = true;
        out.error = e;
        out.response = null;
        return false;
      }
      const next = await this.nextHop(out, response, url, isStart);
      if (next === null) return out.error === null;
      url = next;
    }
  }

  /**
   * The redirect to follow from `url`, recorded in `out.hops`; null when the page ends here:
   * no redirect, a loop or too many (out.redirectProblem), off the site, refused by
   * robots.txt, or a host that cannot be reached at all (out.error set).
   */
  private async nextHop(
    out: Outcome,
    response: FetchResult,
    url: string,
    isStart: boolean,
  ): Promise<string | null> {
    const next = response.location ? normalizeUrl(response.location, url) : null;
    if (!next) return null;
    if (out.hops.includes(next) || out.hops.length > MAX_REDIRECTS) {
      out.redirectProblem = out.hops.includes(next) ? 'loop' : 'limit';
      out.hops.push(next);
      return null;
    }
    out.hops.push(next);
    // Other pages stay on the site; the start page may move (http→https, to a new domain).
    if (!isStart && !isSameSite(next, this.site)) return null;
    const hopRobots = await this.robotsFor(new URL(next).origin);
    if (hopRobots.error && hopRobots.firstHop) {
      // The hop's host cannot be reached at all (refused address, DNS, connection): same for the page.
      out.error = hopRobots.error;
      out.response = null;
      return null;
    }
    return robotsAllows(hopRobots, next, this.token) ? next : null;
  }

  // ---------- queue ----------

  private notify(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private waitChange(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Adds a discovered URL when new, on-site, within depth, not a trap, allowed by robots, within budget. */
  async discover(url: string, depth: number): Promise<void> {
    if (depth > this.cfg.maxDepth || this.seen.has(url) || !isSameSite(url, this.site)) return;
    this.seen.add(url);
    const trap = this.trap.admit(url);
    if (trap) {
      const key = `${trap.reason}:${trap.pattern}`;
      if (!this.trapPatterns.has(key)) {
        this.trapPatterns.add(key);
        this.siteIssues.push(issue('crawl_trap', url, `${trap.reason}: ${trap.pattern}`));
      }
      return;
    }
    if (!(await this.robotsAllow(url))) {
      this.siteIssues.push(issue('blocked_by_robots', url));
      return;
    }
    if (this.pagesPlanned >= this.cfg.maxPages) {
      this.moreUrlsThanBudget = true;
      return;
    }
    this.queue.push({ url, depth, outcome: null });
  }

  markSeen(url: string): void {
    this.seen.add(url);
  }

  enqueueStart(url: string): Entry {
    const entry: Entry = { url, depth: 0, outcome: null };
    this.queue.push(entry);
    this.nextFetch = 1;
    return entry;
  }

  async commitStart(entry: Entry): Promise<void> {
    await this.commit(entry, true);
    this.committed = 1;
  }

  async worker(): Promise<void> {
    while (!this.stopped) {
      if (this.nextFetch < this.queue.length) {
        const entry = this.queue[this.nextFetch++];
        entry.outcome = this.claimed.has(entry.url)
          ? {
              hops: [entry.url],
              response: null,
              error: null,
              redirectProblem: null,
              extracted: null,
              aborted: false,
              skipped: true,
            }
          : await this.fetchEntry(entry, false);
        this.pumpChain = this.pumpChain.then(() => this.pump());
        continue;
      }
      if (this.committed >= this.queue.length) return;
      await this.waitChange();
    }
  }

  /** Commits finished entries strictly in queue order (deterministic link expansion). */
  private async pump(): Promise<void> {
    try {
      while (
        !this.stopped &&
        this.committed < this.queue.length &&
        this.queue[this.committed].outcome
      ) {
        await this.commit(this.queue[this.committed], true);
        this.committed++;
        this.notify();
      }
    } catch (err) {
      // After a stop (time limit, cancel) in-flight robots.txt fetches fail with CANCELLED: not fatal.
      if (!(this.ctl.signal.aborted && isCrawlError(err) && err.code === 'CANCELLED'))
        this.fatal = err;
      this.stop();
    }
  }

  /** Resolves once no commit is running any more. */
  async drained(): Promise<void> {
    let chain: Promise<void>;
    do {
      chain = this.pumpChain;
      await chain;
    } while (chain !== this.pumpChain);
  }

  /** After a stop: report the finished, uninterrupted entries that were not committed yet. */
  commitLeftovers(): void {
    for (let i = this.committed; i < this.queue.length; i++) {
      const e = this.queue[i];
      if (e.outcome && !e.outcome.aborted && !e.recorded) this.record(e);
    }
    this.committed = this.queue.length;
  }

  stop(): void {
    this.stopped = true;
    this.ctl.abort();
    this.notify();
  }

  async commit(entry: Entry, expand: boolean): Promise<void> {
    const rec = this.record(entry);
    if (!rec) return;
    const { x, internal, canonical, nofollow } = rec;
    if (expand && x && !nofollow && entry.depth < this.cfg.maxDepth) {
      for (const link of internal) await this.discover(link, entry.depth + 1);
      if (canonical) await this.discover(canonical, entry.depth + 1);
    }
    if (this.cfg.onProgress) {
      await this.cfg.onProgress(
        this.records.length,
        Math.max(this.records.length, Math.min(this.cfg.maxPages, this.pagesPlanned)),
      );
    }
  }

  /** Turns a finished entry into a PageRecord (or drops it when its URL was already analysed). */
  private record(entry: Entry) {
    const o = entry.outcome as Outcome;
    entry.recorded = true;
    if (o.skipped || o.aborted || this.claimed.has(entry.url)) {
      this.dropped++;
      return null;
    }
    const finalUrl = o.hops[o.hops.length - 1];
    const analysed = o.extracted !== null && !this.claimed.has(finalUrl);
    const x = analysed ? o.extracted : null;
    for (const h of o.hops) this.seen.add(h);
    this.claimed.add(entry.url);
    if (analysed) this.claimed.add(finalUrl);
    const base = x?.baseHref ? (normalizeUrl(x.baseHref, finalUrl) ?? finalUrl) : finalUrl;
    const canonical = x?.canonicalHref ? normalizeUrl(x.canonicalHref, base) : null;
    const directives = robotsDirectives(x, o.response);
    const internal = x ? this.internalLinks(x, base) : [];
    this.records.push({
      finding: pageFinding(entry, o, x, canonical, directives),
      extracted: x,
      internalLinks: internal,
      canonicalUrl: canonical,
      hops: o.hops,
      redirectProblem: o.redirectProblem,
      fetchError: o.error,
      analysed,
    });
    const nofollow = directives.includes('nofollow') || directives.includes('none');
    return { x, internal, canonical, nofollow };
  }

  /** The page's links on this site, normalized against `base`, each once, in page order. */
  private internalLinks(x: ExtractedPage, base: string): string[] {
    const internal: string[] = [];
    const set = new Set<string>();
    for (const l of x.links) {
      const n = normalizeUrl(l.href, base);
      if (n && isSameSite(n, this.site) && !set.has(n)) {
        set.add(n);
        internal.push(n);
      }
    }
    return internal;
  }

  /** Pre-check of the start host (the connect-time guard still applies to every request). */
  async precheck(hostname: string): Promise<void> {
    await resolveAllowed(hostname, this.policy);
  }

  adoptSite(url: string): void {
    this.site = siteKey(url);
  }
}

/** The page's robots directives: its meta robots and its X-Robots-Tag header, lower case. */
function robotsDirectives(x: ExtractedPage | null, r: FetchResult | null): string[] {
  const xRobots = String(r?.headers['x-robots-tag'] ?? '').toLowerCase();
  return [...(x?.metaRobots ?? []), ...xRobots.split(/[,:\s]+/)];
}

/** What the audit reports of one page (its issues are added by the rules). */
function pageFinding(
  entry: Entry,
  o: Outcome,
  x: ExtractedPage | null,
  canonical: string | null,
  directives: string[],
): PageFinding {
  const r = o.response;
  return {
    url: entry.url,
    finalUrl: o.hops[o.hops.length - 1],
    status: r ? r.status : null,
    depth: entry.depth,
    title: x ? x.title : null,
    metaDescription: x ? x.metaDescription || null : null,
    h1Count: x ? x.headings.filter((h) => h.level === 1).length : 0,
    wordCount: x ? x.wordCount : 0,
    responseMs: r ? Math.round(r.elapsedMs) : 0,
    bytes: r ? r.bytes : 0,
    canonical,
    noindex: directives.includes('noindex') || directives.includes('none'),
    issues: [],
    contentType: r ? r.contentType : null,
    redirects: o.hops.length - 1,
    truncated: r ? r.truncated : false,
    structuredDataTypes: x ? x.jsonLdTypes : [],
  };
}
