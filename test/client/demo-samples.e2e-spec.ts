import request from 'supertest';
import { SAMPLE_IDS, declaredEndpoints } from '@app/gateway';
import { createTestApp, TestApp } from '../helpers/test-app';
import { runCommand } from '../helpers/processes';
import { createOwnDatabase } from '../helpers/own-database';
import { FixtureSite, startFixtureSite } from '../site-audit/fixture-site';
import { seedDemo } from '../../apps/api/src/cli/seed-demo';

interface Sample {
  lang: string;
  source: string;
}
type Doc = { paths: Record<string, Record<string, { 'x-codeSamples'?: Sample[] }>> };

/** An example id of the samples as a whole token of a URL (`/89`, `=89`, `/job_…`). */
const EXAMPLE_ID_IN_URL = new RegExp(
  `[/=](${Object.values(SAMPLE_IDS).join('|')})(?![A-Za-z0-9_])`,
);

/**
 * Issue 41: the samples of /docs run against the demo account as `npm start` prints it. The
 * demo is seeded with the seed `npm start` runs (seedDemo) in a database of this suite's own,
 * then the API starts (as npm start does: seed first) and the samples are taken from the
 * served document and run with the printed key. Only the base URL (this instance's) and the
 * audited site (a local one: no outside network here) are changed; the ids are the ones the
 * document serves. The delete samples remove the demo's spares, never its data; the next
 * `npm start` (seed, then API) makes new spares, and the samples run again.
 */
describe('the samples of /docs run with the demo key as npm start prints it', () => {
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let site: FixtureSite;
  let t: TestApp | undefined;
  let key: string;
  let accountId: number;
  // Its own Redis prefix: the demo's account and key ids (in a database of its own) are
  // also ids of other suites' accounts, whose per-minute counters must not be shared.
  const env = {
    AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
    REDIS_PREFIX: `${process.env.REDIS_PREFIX}:demosamples`,
  } as Record<string, string>;

  /** `npm start`: the demo seed, then the API (which reads the demo's ids for its document). */
  async function npmStart(): Promise<Doc> {
    await t?.close();
    const seeder = await createTestApp({ env });
    try {
      ({ key, accountId } = await seedDemo(seeder.app));
    } finally {
      await seeder.close();
    }
    t = await createTestApp({ env });
    return (await request(t.url).get('/docs/openapi.json')).body as Doc;
  }

  beforeAll(async () => {
    db = await createOwnDatabase('demosamples');
    env.DATABASE_URL = db.url;
    site = await startFixtureSite({ articles: 1 });
  });
  afterAll(async () => {
    await t?.close();
    await site?.close();
    await db?.drop();
  });

  const operations = () => declaredEndpoints();
  const sampleOf = (doc: Doc, method: string, path: string, lang: string) =>
    doc.paths[path][method]['x-codeSamples']!.find((s) => s.lang === lang)!.source;
  /** This instance for the configured base URL; the local site for the audited example.com. */
  const here = (source: string) =>
    source
      .split(t!.config.publicBaseUrl)
      .join(t!.url)
      .split('https://example.com/')
      .join(`${site.origin}/`);

  async function runAll(doc: Doc, lang: 'Shell' | 'Python'): Promise<void> {
    for (const e of operations()) {
      const op = e.declaration.operationId;
      const source = sampleOf(doc, e.method, e.path, lang);
      const out = await runCommand(lang === 'Shell' ? 'bash' : 'python3', ['-c', here(source)], {
        ...process.env,
        SEO_API_KEY: key,
      });
      expect({ op, exit: out.status, stderr: out.stderr }).toEqual({ op, exit: 0, stderr: '' });
      if (lang === 'Shell')
        expect({ op, success: JSON.parse(out.stdout).success }).toEqual({ op, success: true });
      else expect(out.stdout.trim().length).toBeGreaterThan(0);
    }
  }

  /** The demo's rows by what they are (counted through the public API with the demo key). */
  async function demoData(): Promise<Record<string, number>> {
    const get = async (path: string) =>
      (await request(t!.url).get(path).set('Authorization', `Bearer ${key}`)).body.data;
    const rank = await get('/api/v1/rank/projects');
    const ai = await get('/api/v1/ai-visibility/projects');
    const domains = (xs: Array<{ domain: string }>) => xs.map((x) => x.domain).sort();
    return {
      rankProjects: domains(rank.projects).filter(
        (d) => d.startsWith('demo-') && d !== 'demo-spare.com',
      ).length,
      aiProjects: domains(ai.projects).filter(
        (d) => d.startsWith('demo-') && d !== 'demo-spare.com',
      ).length,
      completeJobs: (await get('/api/v1/jobs?status=complete')).count,
    };
  }

  it("the served samples name the demo account's ids, and every curl sample answers success", async () => {
    const doc = await npmStart();
    for (const e of operations()) {
      for (const lang of ['Shell', 'Python', 'TypeScript']) {
        const source = sampleOf(doc, e.method, e.path, lang);
        expect({
          op: e.declaration.operationId,
          lang,
          example: EXAMPLE_ID_IN_URL.exec(source)?.[0],
        }).toEqual({ op: e.declaration.operationId, lang, example: undefined });
        expect(source).not.toContain(SAMPLE_IDS.job);
      }
    }
    // The Try it forms of the page are prefilled with the same calls.
    const page = (await request(t!.url).get('/docs')).text;
    expect(page).not.toContain(SAMPLE_IDS.job);
    // The demo audit the job sample names has a report page, as a crawled one has.
    const audits = await request(t!.url)
      .get('/api/v1/jobs?status=complete')
      .set('Authorization', `Bearer ${key}`);
    const reportUrl = audits.body.data.jobs[0].data.report_url as string;
    const report = await request(t!.url).get(new URL(reportUrl).pathname);
    expect(report.status).toBe(200);
    expect(report.text).toContain('demo-outdoor.com');
    const before = await demoData();
    expect(before).toEqual({ rankProjects: 2, aiProjects: 3, completeJobs: 1 });

    await runAll(doc, 'Shell');
    // The delete samples removed the spares only: the demo's data is all there.
    expect(await demoData()).toMatchObject({ rankProjects: 2, aiProjects: 3 });
    // A second run of a delete sample finds its spare gone (404, the API's message printed).
    const del = operations().find((e) => e.declaration.operationId === 'deleteRankProject')!;
    const again = await runCommand(
      'python3',
      ['-c', here(sampleOf(doc, del.method, del.path, 'Python'))],
      {
        ...process.env,
        SEO_API_KEY: key,
      },
    );
    expect(again.status).toBe(1);
    expect(again.stderr.trim()).toMatch(/^404 NOT_FOUND: /);
  }, 120_000);

  it('after the next npm start (new spares, new key) every Python sample runs', async () => {
    // The create sample's AI-visibility project is the caller's: a second create of the same
    // domain and engine is 422; it is removed as its owner would (the API, the demo key).
    const project = (
      await request(t!.url)
        .get('/api/v1/ai-visibility/projects')
        .set('Authorization', `Bearer ${key}`)
    ).body.data.projects.find((p: { domain: string }) => p.domain === 'example.com');
    expect(project).toBeDefined();
    const removed = await request(t!.url)
      .delete(`/api/v1/ai-visibility/projects/${project.id}`)
      .set('Authorization', `Bearer ${key}`);
    expect(removed.status).toBe(200);

    const firstAccount = accountId;
    const doc = await npmStart();
    expect(accountId).toBe(firstAccount);
    await runAll(doc, 'Python');
    expect(await demoData()).toMatchObject({ rankProjects: 2, aiProjects: 3, completeJobs: 1 });
  }, 180_000);
});
