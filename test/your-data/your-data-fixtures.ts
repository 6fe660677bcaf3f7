import { AppConfig } from '@app/core';
import { RankChecksRepository, SerpTasksRepository, Sql } from '@app/database';
import { SerpProvider, createSerpProvider } from '@app/providers';
import { RankCollectionService } from '../../apps/worker/src/rank-collection/rank-collection.service';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';

/** Per-minute limit high enough that a suite never meets it (the cap rules are tested on purpose). */
export const GENEROUS = { requests_per_minute: 100_000 };

export function expectOk(res: { status: number; body: unknown }, status = 200): void {
  if (res.status !== status)
    throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
}

/** Your-data fixtures written through the admin ingestion API. */
export class YourDataAdmin {
  constructor(readonly admin: AdminClient) {}

  async rankProject(accountId: number, domain = 'example.com', name = 'Example') {
    const res = await this.admin.post(`/accounts/${accountId}/rank-projects`, { domain, name });
    if (res.status !== 201 && res.status !== 200)
      throw new Error(`rank project: ${JSON.stringify(res.body)}`);
    return res.body.data.id as number;
  }

  async keyword(projectId: number, keyword: string, extra: Record<string, unknown> = {}) {
    const res = await this.admin.post(`/rank-projects/${projectId}/keywords`, {
      keyword,
      country: 'US',
      language: 'en',
      device: 'desktop',
      ...extra,
    });
    if (res.status !== 201 && res.status !== 200)
      throw new Error(`keyword: ${JSON.stringify(res.body)}`);
    return res.body.data.id as number;
  }

  async checks(keywordId: number, checks: Array<Record<string, unknown>>) {
    const res = await this.admin.post(`/tracked-keywords/${keywordId}/checks`, { checks });
    expectOk(res);
    return res.body.data.stored as number;
  }

  async gscProperty(
    accountId: number,
    uri = 'sc-domain:example.com',
    extra: Record<string, unknown> = {},
  ) {
    const res = await this.admin.post(`/accounts/${accountId}/gsc-properties`, {
      property_uri: uri,
      display_name: 'Example',
      google_email: 'owner@example.com',
      ...extra,
    });
    if (res.status !== 201 && res.status !== 200)
      throw new Error(`gsc property: ${JSON.stringify(res.body)}`);
    return res.body.data.id as number;
  }

  async gscRows(propertyId: number, rows: Array<Record<string, unknown>>) {
    const res = await this.admin.post(`/gsc-properties/${propertyId}/rows`, { rows });
    expectOk(res);
    return res.body.data.stored as number;
  }

  async aiProject(accountId: number, domain = 'example.com', extra: Record<string, unknown> = {}) {
    const res = await this.admin.post(`/accounts/${accountId}/ai-visibility-projects`, {
      domain,
      brand_name: 'Example',
      target_country: 'US',
      target_language: 'en',
      ai_engine: 'chatgpt',
      tracking_frequency: 'weekly',
      ...extra,
    });
    if (res.status !== 201 && res.status !== 200)
      throw new Error(`ai project: ${JSON.stringify(res.body)}`);
    return res.body.data.id as number;
  }

  async scan(projectId: number, scan: Record<string, unknown>) {
    const res = await this.admin.post(`/ai-visibility-projects/${projectId}/scans`, scan);
    expectOk(res);
    return res.body.data;
  }
}

export function scanBody(snapshot_date: string, over: Record<string, unknown> = {}) {
  return {
    snapshot_date,
    visibility_score: 50,
    geo_score: 40,
    mention_rate: 30,
    avg_position: 2.5,
    sentiment_avg: 0.4,
    citation_rate: 12,
    competition_score: 55,
    prompts_evaluated: 100,
    brand_mentions: 30,
    competitors: [],
    ...over,
  };
}

/** GET a public route with the account's key. */
export function get(t: TestApp, acc: TestAccount, path: string) {
  return t.http().get(path).set(bearer(acc.key));
}

/**
 * A Pro account with a rank project, tracked unless `tracking` is false. `cleanups` gets its
 * untracking, so that later tests' workers see none of it.
 */
export async function trackingProject(
  admin: AdminClient,
  cleanups: Array<() => Promise<unknown>>,
  domain: string,
  tracking = true,
): Promise<{ acc: TestAccount; projectId: number }> {
  const acc = await admin.account('pro', GENEROUS);
  const res = await admin.post(`/accounts/${acc.id}/rank-projects`, {
    domain,
    name: domain,
    tracking,
  });
  expectOk(res, 201);
  cleanups.push(() =>
    admin.post(`/accounts/${acc.id}/rank-projects`, { domain, name: domain, tracking: false }),
  );
  return { acc, projectId: res.body.data.id as number };
}

/** A rank-collection worker on the test app's database and clock, with a SERP client of its own. */
export function rankWorker(
  t: TestApp,
  config: AppConfig = t.config,
  serp: SerpProvider = createSerpProvider(config, t.clock),
): RankCollectionService {
  const sql = t.app.get(Sql);
  return new RankCollectionService(
    config,
    new SerpTasksRepository(sql, new RankChecksRepository(sql)),
    serp,
    t.clock,
  );
}
