import { CallMeterRepository, MeterOutcome, UsageLine } from './call-meter.repository';
import { CallMeterService } from './call-meter.service';

const line = (endpoint: string): UsageLine => ({
  keyId: 1,
  grantId: 0,
  endpoint,
  group: 'other',
});

/** A meter in memory with the statement's rule, recording each statement's batch. */
function fakeMeter() {
  let used = 0;
  const batches: string[][] = [];
  let release: () => void = () => undefined;
  const repo = {
    async consume(_a: number, _at: Date | null, cap: number | null, lines: UsageLine[]) {
      batches.push(lines.map((l) => l.endpoint));
      await new Promise<void>((r) => (release = r)); // held until the test releases it
      const periodStart = '2026-11-01';
      if (cap !== null && used >= cap) return { periodStart, count: null };
      const before = used;
      used += cap === null ? lines.length : Math.min(lines.length, cap - used);
      return { periodStart, count: { before, used } } satisfies MeterOutcome;
    },
  };
  return { repo: repo as unknown as CallMeterRepository, batches, release: () => release() };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('CallMeterService: group commit', () => {
  const now = null; // the database's month

  it('a lone call goes at once; calls that arrive meanwhile share the next statement, in order', async () => {
    const m = fakeMeter();
    const meter = new CallMeterService(m.repo);
    const first = meter.consume(1, 5, true, now, line('a'));
    const rest = ['b', 'c', 'd', 'e', 'f', 'g'].map((e) => meter.consume(1, 5, true, now, line(e)));
    await flush();
    expect(m.batches).toEqual([['a']]);
    m.release();
    expect(await first).toEqual({ periodStart: '2026-11-01', allowed: true, used: 1 });
    await flush();
    expect(m.batches).toEqual([['a'], ['b', 'c', 'd', 'e', 'f', 'g']]);
    m.release();
    // The cap of 5 admits b..e (counts 2..5) and refuses f and g.
    expect(await Promise.all(rest)).toEqual([
      { periodStart: '2026-11-01', allowed: true, used: 2 },
      { periodStart: '2026-11-01', allowed: true, used: 3 },
      { periodStart: '2026-11-01', allowed: true, used: 4 },
      { periodStart: '2026-11-01', allowed: true, used: 5 },
      { periodStart: '2026-11-01', allowed: false, used: 5 },
      { periodStart: '2026-11-01', allowed: false, used: 5 },
    ]);
  });

  it('other accounts and other caps do not wait for each other', async () => {
    const m = fakeMeter();
    const meter = new CallMeterService(m.repo);
    void meter.consume(1, 5, true, now, line('capped'));
    void meter.consume(1, 5, false, now, line('your-data'));
    void meter.consume(2, 5, true, now, line('other account'));
    await flush();
    expect(m.batches).toEqual([['capped'], ['your-data'], ['other account']]);
  });

  it('a failed statement fails its calls only; the next batch goes on', async () => {
    let calls = 0;
    const repo = {
      async consume(_a: number, _at: Date | null, _c: number | null, lines: UsageLine[]) {
        calls++;
        await flush();
        if (calls === 1) throw new Error('connection lost');
        return { periodStart: '2026-11-01', count: { before: 0, used: lines.length } };
      },
    } as unknown as CallMeterRepository;
    const meter = new CallMeterService(repo);
    const a = meter.consume(1, null, false, now, line('a'));
    const b = meter.consume(1, null, false, now, line('b'));
    await expect(a).rejects.toThrow('connection lost');
    await expect(b).resolves.toEqual({ periodStart: '2026-11-01', allowed: true, used: 1 });
  });
});
