import request from 'supertest';
import { AdminClient, bearer } from '../helpers/fixtures';
import { createTestApp } from '../helpers/test-app';
import { POLLING_OVERRIDES } from './site-audit-helpers';
it('perf', async () => {
  const t = await createTestApp({ env: { AUDIT_ALLOW_PRIVATE_NETWORKS: 'true', REDIS_PREFIX: `${process.env.REDIS_PREFIX}:perf` } });
  const acc = await new AdminClient(t.url).account('agency', { ...POLLING_OVERRIDES, site_audit_crawls_per_month: 100000, site_audit_rolling_page_budget: 100000000 });
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const s = performance.now();
    const r = await request(t.url).post('/api/v1/site-audit').set(bearer(acc.key)).send({ url: 'http://127.0.0.1:9/', max_pages: 10 });
    times.push(performance.now() - s);
    if (r.status !== 202) throw new Error(JSON.stringify(r.body));
  }
  const g: number[] = [];
  for (let i = 0; i < 50; i++) {
    const s = performance.now();
    await request(t.url).get(`/api/v1/jobs/job_AAAAAAAAAAAAAAAAAAAAAA`).set(bearer(acc.key));
    g.push(performance.now() - s);
  }
  // concurrent: 20 at once on one account
  const s = performance.now();
  await Promise.all(Array.from({ length: 20 }, () => request(t.url).post('/api/v1/site-audit').set(bearer(acc.key)).send({ url: 'http://127.0.0.1:9/', max_pages: 10 })));
  const conc = performance.now() - s;
  const q = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.floor(p * (a.length - 1))].toFixed(1);
  console.log(`POST p50 ${q(times, 0.5)} p95 ${q(times, 0.95)} p99 ${q(times, 0.99)}; GET p50 ${q(g, 0.5)} p95 ${q(g, 0.95)}; 20 concurrent POSTs ${conc.toFixed(0)} ms`);
  const ex = await t.db.query(`EXPLAIN ANALYZE SELECT COALESCE(SUM(pages), 0)::int AS used FROM site_audit_page_budget WHERE account_id = $1 AND created_at > now() - interval '30 days'`, [acc.id]);
  console.log(ex.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
  await t.close();
}, 120000);
