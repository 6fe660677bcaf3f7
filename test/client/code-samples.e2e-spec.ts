import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import ts from 'typescript';
import { declaredEndpoints } from '@app/gateway';
import { AdminClient, TestAccount } from '../helpers/fixtures';
import { ClientBuild, CLIENT_DIR, REPO, buildClient } from '../helpers/client-build';
import { createTestApp, TestApp } from '../helpers/test-app';
import { runCommand } from '../helpers/processes';
import { FixtureSite, startFixtureSite } from '../site-audit/fixture-site';
import { POLLING_OVERRIDES } from '../site-audit/site-audit-helpers';
import { YourDataAdmin, scanBody } from '../your-data/your-data-fixtures';

interface Sample {
  lang: string;
  label: string;
  source: string;
}
type Doc = { paths: Record<string, Record<string, { 'x-codeSamples'?: Sample[] }>> };

/**
 * Issue 26, item 4: every public operation in /docs carries samples (curl, TypeScript with
 * the typed client, Python with the standard library only), and every sample runs. They are
 * taken from the served document; the base URL becomes the test instance's, the key comes
 * from SEO_API_KEY as the samples say, and the example ids (keyword 123, property 45,
 * project 67, the example job id) become ids of the test account's own data, and the audited
 * site a local one (no outside network here). The TypeScript
 * samples are type-checked together against the client, then run as ES modules; each must
 * exit 0 (the client throws on an error answer; urllib raises on one) and curl's answer must be
 * a success envelope.
 */
/** Every declared public operation (@Endpoint). */
const publicOperations = () =>
  declaredEndpoints().map((e) => ({ ...e, operationId: e.declaration.operationId }));

describe('code samples in /docs run (curl, TypeScript, Python)', () => {
  let t: TestApp;
  let acc: TestAccount;
  let build: ClientBuild;
  let doc: Doc;
  let work: string;
  let site: FixtureSite;
  const ids = { keyword: 0, property: 0, aiProject: 0, job: '', rankProject: 0 };
  // What the delete samples remove: one project and one keyword for each language's run.
  const spareProjects: number[] = [];
  const spareKeywords: number[] = [];
  const spareAiProjects: number[] = [];

  beforeAll(async () => {
    build = buildClient();
    work = join(build.dir, 'samples');
    mkdirSync(work);
    site = await startFixtureSite({ articles: 1 });
    t = await createTestApp({ env: { AUDIT_ALLOW_PRIVATE_NETWORKS: 'true' } });
    const admin = new AdminClient(t.url);
    const yd = new YourDataAdmin(admin);
    // Each language's createAiVisibilityProject sample creates the same project (removed after
    // it, see sampleRan); the plan's one project is taken by the admin-made one below.
    acc = await admin.account('pro', { ...POLLING_OVERRIDES, ai_visibility_projects: 10 });
    await admin.credits(acc.id, 10);
    const project = await yd.rankProject(acc.id, 'example.com', 'Example');
    ids.keyword = await yd.keyword(project, 'running shoes');
    ids.rankProject = project;
    for (let i = 0; i < 3; i++) {
      spareProjects.push(await yd.rankProject(acc.id, `spare-${i}.example.com`, 'Spare'));
      spareKeywords.push(await yd.keyword(project, `spare keyword ${i}`));
    }
    ids.property = await yd.gscProperty(acc.id);
    ids.aiProject = await yd.aiProject(acc.id, 'ai-sample.example.com');
    for (let i = 0; i < 3; i++)
      spareAiProjects.push(await yd.aiProject(acc.id, `ai-spare-${i}.example.com`));
    await yd.scan(ids.aiProject, scanBody('2026-01-05'));
    const audit = await request(t.url)
      .post('/api/v1/site-audit')
      .set('Authorization', `Bearer ${acc.key}`)
      .send({ url: `${site.origin}/`, max_pages: 1 });
    expect(audit.status).toBe(202);
    ids.job = audit.body.job_id as string;
    doc = (await request(t.url).get('/docs/openapi.json')).body as Doc;
  });
  afterAll(async () => {
    await t?.close();
    await site?.close();
    build?.remove();
  });

  /** The sample as run here: this instance, this account's ids. */
  /** After a sample ran: the project a create sample made goes, so the next language's can. */
  async function sampleRan(operationId: string): Promise<void> {
    if (operationId !== 'createAiVisibilityProject') return;
    await t.db.query(
      `DELETE FROM ai_visibility_projects WHERE account_id = $1 AND domain = 'example.com'`,
      [acc.id],
    );
  }

  function filled(source: string): string {
    let out = source.split(t.config.publicBaseUrl).join(t.url);
    for (const [name, example, real] of [
      ['keyword_id', '123', ids.keyword],
      ['property_id', '45', ids.property],
      ['project_id', '67', ids.aiProject],
    ] as const) {
      out = out.split(`${name}=${example}`).join(`${name}=${real}`);
      out = out.split(`${name}: ${example}`).join(`${name}: ${real}`);
    }
    // The rank-management samples: project 89 and keyword 123 are the account's; project 90
    // and keyword 124 are deleted, so each run of them gets a spare of its own.
    const rank: Array<[string[], () => number]> = [
      [['/rank/projects/89', 'RankProject(89', 'RankKeywords(89'], () => ids.rankProject],
      [['/rank/keywords/123', 'RankKeyword(123'], () => ids.keyword],
      [['/rank/projects/90', 'RankProject(90'], () => spareProjects.shift()!],
      [['/rank/keywords/124', 'RankKeyword(124'], () => spareKeywords.shift()!],
      // AI visibility: project 67 is the account's, project 68 is deleted (a spare per run).
      [
        ['/ai-visibility/projects/67', 'aiVisibilitySettings(67', 'AiVisibilityProject(67'],
        () => ids.aiProject,
      ],
      [['/ai-visibility/projects/68', 'AiVisibilityProject(68'], () => spareAiProjects.shift()!],
    ];
    for (const [forms, real] of rank) {
      if (!forms.some((f) => out.includes(f))) continue;
      const id = String(real());
      for (const form of forms) out = out.split(form).join(form.replace(/\d+$/, id));
    }
    // The audit samples crawl a local fixture site (the test has no outside network).
    out = out.split('https://example.com/').join(`${site.origin}/`);
    return out.split('job_3kTMd92jf8AbQx0PzLw1Rv').join(ids.job);
  }

  const env = () => ({ ...process.env, SEO_API_KEY: acc.key });
  const samplesOf = (method: string, path: string) =>
    doc.paths[path][method]['x-codeSamples'] ?? [];

  it('every public operation has a curl, a TypeScript and a Python sample', () => {
    for (const e of publicOperations()) {
      const langs = samplesOf(e.method, e.path).map((s) => s.lang);
      expect({ op: e.operationId, langs }).toEqual({
        op: e.operationId,
        langs: ['Shell', 'TypeScript', 'Python'],
      });
    }
  });

  it('the curl samples answer a success envelope', async () => {
    for (const e of publicOperations()) {
      const sample = samplesOf(e.method, e.path).find((s) => s.lang === 'Shell')!;
      const out = await runCommand('bash', ['-c', filled(sample.source)], env());
      await sampleRan(e.operationId);
      expect({ op: e.operationId, exit: out.status, stderr: out.stderr }).toEqual({
        op: e.operationId,
        exit: 0,
        stderr: '',
      });
      expect({ op: e.operationId, success: JSON.parse(out.stdout).success }).toEqual({
        op: e.operationId,
        success: true,
      });
    }
  });

  it('the Python samples run with the standard library and print the answer', async () => {
    for (const e of publicOperations()) {
      const sample = samplesOf(e.method, e.path).find((s) => s.lang === 'Python')!;
      expect(sample.source).not.toMatch(/^\s*(import|from)\s+(requests|httpx)/m);
      const out = await runCommand('python3', ['-c', filled(sample.source)], env());
      await sampleRan(e.operationId);
      expect({ op: e.operationId, exit: out.status, stderr: out.stderr }).toEqual({
        op: e.operationId,
        exit: 0,
        stderr: '',
      });
      expect(out.stdout.trim().length).toBeGreaterThan(0);
    }
  });

  /** Type-checks the TypeScript sources together against the client, then runs each. */
  async function typeCheckAndRun(sources: Record<string, string>): Promise<void> {
    const files = Object.keys(sources).map((name) => {
      const file = join(work, `${name}.ts`);
      writeFileSync(file, sources[name]);
      return file;
    });
    writeFileSync(
      join(work, `tsconfig.${Object.keys(sources)[0]}.json`),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ES2022',
          moduleResolution: 'bundler',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(REPO, 'node_modules/@types')],
          baseUrl: work,
          paths: { '@seo-api/client': [join(CLIENT_DIR, 'src/index.ts')] },
        },
        files,
      }),
    );
    const check = await runCommand(
      process.execPath,
      [
        join(REPO, 'node_modules/typescript/bin/tsc'),
        '-p',
        join(work, `tsconfig.${Object.keys(sources)[0]}.json`),
      ],
      process.env,
    );
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);

    for (const [name, source] of Object.entries(sources)) {
      const js = ts
        .transpileModule(source, {
          compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
        })
        .outputText.replace("'@seo-api/client'", JSON.stringify(build.esmUrl));
      const file = join(work, `${name}.mjs`);
      writeFileSync(file, js);
      const out = await runCommand(process.execPath, [file], env());
      await sampleRan(name);
      expect({ name, exit: out.status, stderr: out.stderr }).toEqual({
        name,
        exit: 0,
        stderr: '',
      });
      expect(out.stdout.trim().length).toBeGreaterThan(0);
    }
  }

  it('the TypeScript samples type-check against the client, then run', async () => {
    const sources: Record<string, string> = {};
    for (const e of publicOperations()) {
      const sample = samplesOf(e.method, e.path).find((s) => s.lang === 'TypeScript')!;
      sources[e.operationId] = filled(sample.source);
    }
    await typeCheckAndRun(sources);
  });

  /** The text of the HTML elements, decoded (the reference page escapes &, <, >, " and '). */
  const decoded = (html: string): string =>
    html
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');

  it('the /docs page shows exactly these samples beside each operation (what runs here is what is served)', async () => {
    const html = (await request(t.url).get('/docs')).text;
    for (const e of publicOperations()) {
      const section = new RegExp(
        `<section class="op" id="${e.operationId}"[\\s\\S]*?</section>`,
      ).exec(html)?.[0];
      expect({ op: e.operationId, found: section !== undefined }).toEqual({
        op: e.operationId,
        found: true,
      });
      const shown = [
        ...section!.matchAll(
          /data-lang="([^"]+)"[^>]*>.*?<pre tabindex="0"><code>([\s\S]*?)<\/code><\/pre>/g,
        ),
      ].map((m) => ({ lang: m[1], source: decoded(m[2]) }));
      expect(shown).toEqual(
        samplesOf(e.method, e.path).map((x) => ({ lang: x.lang, source: x.source })),
      );
    }
  });

  it('each language prints the API error code and message of an error answer (an unknown job: 404 NOT_FOUND)', async () => {
    // getJob's sample as served, with this instance's URL but the sample's own job id, which
    // this account does not have.
    const op = publicOperations().find((e) => e.operationId === 'getJob')!;
    const raw = (lang: string) =>
      samplesOf(op.method, op.path)
        .find((x) => x.lang === lang)!
        .source.split(t.config.publicBaseUrl)
        .join(t.url);
    const api = await request(t.url)
      .get('/api/v1/jobs/job_3kTMd92jf8AbQx0PzLw1Rv')
      .set('Authorization', `Bearer ${acc.key}`);
    expect(api.status).toBe(404);
    const { code, message } = api.body.error as { code: string; message: string };
    expect(code).toBe('NOT_FOUND');

    const curl = await runCommand('bash', ['-c', raw('Shell')], env());
    expect(curl.status).toBe(22); // --fail-with-body: a failing exit, the envelope printed
    expect(JSON.parse(curl.stdout).error).toMatchObject({ code, message });

    const py = await runCommand('python3', ['-c', raw('Python')], env());
    expect(py.status).toBe(1);
    expect(py.stderr.trim()).toBe(`404 ${code}: ${message}`);

    const name = 'getJobError';
    writeFileSync(join(work, `${name}.ts`), raw('TypeScript'));
    const js = ts
      .transpileModule(raw('TypeScript'), {
        compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
      })
      .outputText.replace("'@seo-api/client'", JSON.stringify(build.esmUrl));
    writeFileSync(join(work, `${name}.mjs`), js);
    const node = await runCommand(process.execPath, [join(work, `${name}.mjs`)], env());
    expect(node.status).toBe(1);
    expect(node.stderr.trim()).toBe(`404 ${code}: ${message}`);
  });

  it('the README\'s "Use it from code" example type-checks and runs', async () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Use it from code'));
    const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example).toBeDefined();
    expect(example!.trim().split('\n').length).toBeLessThanOrEqual(15);
    await typeCheckAndRun({ readmeExample: filled(example!) });
  });
});
