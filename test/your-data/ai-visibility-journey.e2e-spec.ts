import type { TestingModule } from '@nestjs/testing';
import { AiVisibilityScansService } from '../../apps/worker/src/ai-visibility-scans/ai-visibility-scans.service';
import { FakeLlmResponses } from '../fixtures/fake-llm-responses';
import { signIn } from '../helpers/account-session';
import { AdminClient, bearer } from '../helpers/fixtures';
import { createOwnDatabase } from '../helpers/own-database';
import { TestApp, createTestApp } from '../helpers/test-app';
import { startWorker } from '../site-audit/site-audit-helpers';
import { GENEROUS, expectOk } from './your-data-fixtures';

jest.setTimeout(90_000);

/**
 * Management and scans together (issue 40 items 1, 2 and 4): a project created with the API
 * key is due at once, the worker's next run scans it against the LLM Responses fake, and the
 * account area reads its score and the answer each figure came from. Its own database: the
 * scans claim every due project of a database.
 */
describe('AI visibility: a project created through the API is scanned and read back', () => {
  const fake = new FakeLlmResponses();
  let t: TestApp;
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let worker: TestingModule | undefined;

  beforeAll(async () => {
    await fake.start();
    db = await createOwnDatabase('aijourney');
    t = await createTestApp({
      env: fake.env({
        DATABASE_URL: db.url,
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:aijourney`,
      }),
    });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await fake.close();
    await db?.drop();
  });

  it('create → first scan at the next run → scores and answers in the account area; a change of prompts makes it due again', async () => {
    const acc = await new AdminClient(t.url).account('pro', GENEROUS);
    fake.answers.set('best hand tools', {
      text: 'Acme is excellent. Bolt is fine.',
      urls: ['https://www.acme-tools.com/guide', 'javascript:alert(1)'],
    });
    fake.answers.set('who sells drills', { text: 'Bolt leads; nobody else.', urls: [] });
    const created = await t
      .http()
      .post('/api/v1/ai-visibility/projects')
      .set(bearer(acc.key))
      .send({
        domain: 'acme-tools.com',
        brand_name: 'Acme',
        target_country: 'US',
        target_language: 'en',
        ai_engine: 'chatgpt',
        tracking_frequency: 'daily',
        prompts: ['best hand tools', 'who sells drills'],
        competitors: [{ name: 'Bolt', domain: 'bolt.io' }],
      });
    expectOk(created, 201);
    const id = created.body.data.id as number;

    worker = await startWorker(t.config, t.clock);
    const scans = worker.get(AiVisibilityScansService);
    expect(await scans.runDue()).toMatchObject({ projects: 1, asked: 2, answered: 2, stored: 1 });

    const person = await signIn(t.url, acc.id);
    const scores = await person.get(`/ai-visibility/projects/${id}/scores`);
    expect(scores.body.data.scores).toHaveLength(1);
    expect(scores.body.data.scores[0].mention_rate).toBe(50);
    expect(scores.body.data.chart.bars).toHaveLength(1);
    const answers = await person.get(`/ai-visibility/projects/${id}/answers`);
    expect(answers.body.data.answers.map((a: { prompt: string }) => a.prompt)).toEqual([
      'best hand tools',
      'who sells drills',
    ]);
    expect(answers.body.data.answers[0]).toMatchObject({
      status: 'answered',
      answer: 'Acme is excellent. Bolt is fine.',
    });
    expect(answers.body.data.answers[0].cited_urls).toContain('https://www.acme-tools.com/guide');
    const listed = await person.get('/ai-visibility/projects');
    expect(listed.body.data.projects[0].visibility_score).toBe(
      scores.body.data.scores[0].visibility_score,
    );

    // Scanned: not due again before its interval; a new prompt makes it due now.
    expect(await scans.runDue()).toMatchObject({ projects: 0 });
    const changed = await person.patch(`/ai-visibility/projects/${id}`, {
      prompts: ['best hand tools', 'who sells drills', 'cheap wrenches'],
    });
    expect(changed.status).toBe(200);
    expect(await scans.runDue()).toMatchObject({ projects: 1 });
    const after = await person.get(`/ai-visibility/projects/${id}/answers`);
    expect(after.body.data.answers[2]).toMatchObject({
      prompt: 'cheap wrenches',
      status: 'answered',
    });
  });
});
