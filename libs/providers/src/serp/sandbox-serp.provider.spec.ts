import { serpCheck } from './serp.mapping';
import { SandboxSerpProvider, sandboxPosition } from './sandbox-serp.provider';

const task = (keyword: string, tag = 't1') => ({
  tag,
  keyword,
  locationCode: 2840,
  languageCode: 'en',
  device: 'desktop' as const,
  depth: 100,
  target: 'demo-outdoor.com',
});

async function checkOn(day: string, keyword: string) {
  const sandbox = new SandboxSerpProvider(() => new Date(`${day}T10:00:00Z`));
  const [posted] = await sandbox.postTasks([task(keyword)]);
  if (!posted.ok) throw new Error('not posted');
  const answer = await sandbox.taskGet(posted.taskId);
  if (answer.kind !== 'done') throw new Error(answer.kind);
  return serpCheck(answer.result, 'demo-outdoor.com', 'domain', day);
}

describe('SandboxSerpProvider (offline, deterministic SERPs)', () => {
  it('answers the same SERP for the same keyword, market and day', async () => {
    expect(await checkOn('2026-03-01', 'hiking boots')).toEqual(
      await checkOn('2026-03-01', 'hiking boots'),
    );
  });

  it('moves positions from day to day, within a few places of a home position', () => {
    const keywords = Array.from({ length: 40 }, (_, i) => `keyword ${i}`);
    const days = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04'];
    const series = keywords.map((k) => days.map((d) => sandboxPosition(k, 'm', d, 100)));
    const ranked = series.filter((s) => s.every((p) => p !== null)) as number[][];
    expect(ranked.length).toBeGreaterThan(20);
    expect(series.some((s) => s.every((p) => p === null))).toBe(true); // some never ranked
    expect(ranked.some((s) => new Set(s).size > 1)).toBe(true);
    for (const s of ranked) expect(Math.max(...s) - Math.min(...s)).toBeLessThanOrEqual(6);
  });

  it('the stored check reads the target at the sandbox position, dated by the posting day', async () => {
    const keyword = Array.from({ length: 20 }, (_, i) => `tent ${i}`).find(
      (k) => sandboxPosition(k, '2840|en|desktop', '2026-03-05', 100) !== null,
    )!;
    const check = await checkOn('2026-03-05', keyword);
    expect(check.position).toBe(sandboxPosition(keyword, '2840|en|desktop', '2026-03-05', 100));
    expect(check.landing_page).toMatch(/^https:\/\/www\.demo-outdoor\.com\//);
    expect(check.check_date).toBe('2026-03-05');
  });

  it('lists posted tasks as ready until collected; an unknown id is not found', async () => {
    const sandbox = new SandboxSerpProvider(() => new Date('2026-03-01T00:00:00Z'));
    const posted = await sandbox.postTasks([task('a', 'ta'), task('b', 'tb')]);
    expect((await sandbox.tasksReady()).map((r) => r.tag)).toEqual(['ta', 'tb']);
    if (!posted[0].ok) throw new Error('not posted');
    await sandbox.taskGet(posted[0].taskId);
    expect((await sandbox.tasksReady()).map((r) => r.tag)).toEqual(['tb']);
    expect((await sandbox.taskGet('nope')).kind).toBe('failed');
  });
});
