import { createTestApp, TestApp } from '../helpers/test-app';
import { AdminClient, bearer } from '../helpers/fixtures';
import { ROOMY, researchLedger, reservationsOf, usageOf } from './research-helpers';

/**
 * A paid research answer is delivered only after its charge is committed (issue 13, item
 * 5). The commit statement is made to fail for real, in PostgreSQL: a trigger on
 * research_reservations, limited to this suite's account, raises on 'reserved' →
 * 'committed' for the first `fail` attempts and counts every attempt in a sequence
 * (sequences are not rolled back). No mock of the database.
 */
describe('research: charge commit before delivery', () => {
  let t: TestApp;
  let admin: AdminClient;
  let acct: { id: number; key: string };
  const fn = () => `test_fail_commit_${acct.id}`;
  const seq = () => `test_commit_attempts_${acct.id}`;

  beforeAll(async () => {
    t = await createTestApp();
    admin = new AdminClient(t.url);
    acct = await admin.account('agency', { ...ROOMY, backlinks_per_month: 0 });
    await admin.credits(acct.id, 5);
  });
  afterAll(async () => {
    await dropTrigger();
    await t.close();
  });

  async function failCommits(fail: number): Promise<void> {
    await dropTrigger();
    await t.db.query(`CREATE SEQUENCE ${seq()}`);
    await t.db.query(`
      CREATE FUNCTION ${fn()}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('${seq()}') <= ${fail} THEN
          RAISE EXCEPTION 'injected commit failure (test)';
        END IF;
        RETURN NEW;
      END $$`);
    await t.db.query(`
      CREATE TRIGGER ${fn()} BEFORE UPDATE ON research_reservations FOR EACH ROW
      WHEN (OLD.account_id = ${acct.id} AND OLD.state = 'reserved' AND NEW.state = 'committed')
      EXECUTE FUNCTION ${fn()}()`);
  }

  async function attempts(): Promise<number> {
    const [row] = await t.db.query(`SELECT last_value, is_called FROM ${seq()}`);
    return row.is_called ? Number(row.last_value) : 0;
  }

  async function dropTrigger(): Promise<void> {
    if (!acct) return;
    await t.db.query(`DROP TRIGGER IF EXISTS ${fn()} ON research_reservations`);
    await t.db.query(`DROP FUNCTION IF EXISTS ${fn()}()`);
    await t.db.query(`DROP SEQUENCE IF EXISTS ${seq()}`);
  }

  const get = (domain: string) =>
    t.http().get('/api/v1/backlinks').query({ domain }).set(bearer(acct.key));

  it('a commit that fails twice is retried and the answer is delivered, charged once', async () => {
    await failCommits(2);
    const res = await get('retried.example');
    expect(res.status).toBe(200);
    expect(res.body.meta.charged).toBe('credit');
    expect(await attempts()).toBe(3);
    expect((await reservationsOf(t.db, acct.id)).map((r) => r.state)).toEqual(['committed']);
    expect((await usageOf(admin, acct.id)).credits).toBe(4);
  });

  it('a commit that keeps failing answers 500 SERVER_ERROR with Retry-After, fast, and charges nothing', async () => {
    await failCommits(1_000);
    const started = Date.now();
    const res = await get('never.example');
    const elapsed = Date.now() - started;
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('SERVER_ERROR');
    expect(res.headers['retry-after']).toBe('2');
    expect(res.body.data).toBeUndefined();
    expect(elapsed).toBeLessThan(1_500);
    expect(await attempts()).toBe(3);
    const states = (await reservationsOf(t.db, acct.id)).map((r) => r.state);
    expect(states).toEqual(['committed', 'refunded']);
    expect((await usageOf(admin, acct.id)).credits).toBe(4);
    const ledger = await researchLedger(t.db, acct.id);
    expect(ledger.map((r) => r.delta)).toEqual([-1, -1, 1]);
    expect(ledger[2].reason).toContain('charge not recorded');
  });

  it('nothing was cached by the failed answer: the retry fetches and charges again', async () => {
    await dropTrigger();
    const res = await get('never.example');
    expect(res.status).toBe(200);
    expect(res.body.meta.cached).toBe(false);
    expect(res.body.meta.charged).toBe('credit');
    expect((await usageOf(admin, acct.id)).credits).toBe(3);
  });
});
