import request from 'supertest';
import { declaredEndpoints } from '@app/gateway';
import { AnswerValidator, OpenApiDoc } from '../helpers/openapi-answers';
import { createTestApp, TestApp } from '../helpers/test-app';
import { createOwnDatabase } from '../helpers/own-database';
import { startWorker } from '../site-audit/site-audit-helpers';
import { seedDemo } from '../../apps/api/src/cli/seed-demo';
import { recordAnswers } from '../../apps/api/src/cli/openapi-examples';
import {
  RECORDED_ANSWERS,
  RecordedAnswer,
  shapeDifferences,
  shapeOf,
} from '../../apps/api/src/ops/openapi-examples';
import { GscSyncService } from '../../apps/worker/src/gsc-sync/gsc-sync.service';

type Media = { schema?: unknown; example?: unknown };
type Doc = OpenApiDoc & {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, Media> }> }>
  >;
};

/**
 * Issue 41: the success examples of /docs/openapi.json are real sandbox answers
 * (apps/api/src/ops/openapi-examples.json, recorded by `npm run openapi:examples`). Each
 * operation's success response carries one, valid against its schema in the served document
 * (objects closed, as for live answers); and the recording is re-done here as the script does
 * it (the demo seeded and synced in a database of this suite's own, every sample call sent with
 * the demo key), and each stored answer must have the shape of the new one: the same status,
 * members and types.
 */
describe('OpenAPI success examples: recorded real answers, valid and current', () => {
  let t: TestApp | undefined;
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let doc: Doc;
  let v: AnswerValidator;

  const success = (method: string, path: string) => {
    const responses = doc.paths[path][method].responses ?? {};
    const status = Object.keys(responses).find((s) => s.startsWith('2'))!;
    return { status: Number(status), media: responses[status].content?.['application/json'] };
  };

  beforeAll(async () => {
    db = await createOwnDatabase('examples');
    const env = {
      DATABASE_URL: db.url,
      GSC_BACKFILL_MONTHS: '1',
      AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
    };
    // As the script: the demo seed and one Search Console sync, then the API.
    const seeder = await createTestApp({ env });
    let key: string;
    try {
      ({ key } = await seedDemo(seeder.app));
      const worker = await startWorker(seeder.config, seeder.clock);
      try {
        await worker.get(GscSyncService).runDue();
      } finally {
        await worker.close();
      }
    } finally {
      await seeder.close();
    }
    t = await createTestApp({ env });
    doc = (await request(t.url).get('/docs/openapi.json')).body as Doc;
    v = new AnswerValidator(doc);
    fresh = await recordAnswers(t.app, t.url, key, `${t.url}/`);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });
  let fresh: Record<string, RecordedAnswer>;

  it('every public operation has a recorded example on its success response', () => {
    for (const e of declaredEndpoints()) {
      const op = e.declaration.operationId;
      const { status, media } = success(e.method, e.path);
      expect({ op, status, example: media?.example !== undefined }).toEqual({
        op,
        status: RECORDED_ANSWERS[op]?.status,
        example: true,
      });
      expect(media!.example).toEqual(RECORDED_ANSWERS[op].body);
    }
    // No answer kept for an operation that is gone.
    expect(Object.keys(RECORDED_ANSWERS).sort()).toEqual(
      declaredEndpoints()
        .map((e) => e.declaration.operationId)
        .sort(),
    );
  });

  it('each example is valid against its success schema in the served document', () => {
    for (const e of declaredEndpoints()) {
      const { status, media } = success(e.method, e.path);
      expect(v.problems(e.method, e.path, status, media!.example)).toEqual([]);
      // Real answers, not placeholders.
      expect(JSON.stringify(media!.example)).not.toMatch(/"string"|additionalProp1/);
    }
  });

  it('the stored examples have the shape of the answers recorded now (npm run openapi:examples is current)', () => {
    for (const e of declaredEndpoints()) {
      const op = e.declaration.operationId;
      const now = fresh[op];
      expect({ op, status: now.status }).toEqual({ op, status: RECORDED_ANSWERS[op].status });
      expect(v.problems(e.method, e.path, now.status, now.body)).toEqual([]);
      expect({
        op,
        differences: shapeDifferences(shapeOf(RECORDED_ANSWERS[op].body), shapeOf(now.body)),
      }).toEqual({ op, differences: [] });
    }
  });
});
