import { Gauge, Registry } from 'prom-client';
import { publishNodeInfo } from './node-info';

describe('publishNodeInfo (db_primary_node_info, db_standby_node_info)', () => {
  const registry = new Registry();
  const gauge = new Gauge({
    name: 'test_node_info',
    help: 'test',
    labelNames: ['address', 'port'] as const,
    registers: [registry],
  });
  const series = async () =>
    (await gauge.get()).values.map((v) => ({ labels: v.labels, value: v.value }));

  it('one series, 1 on the node; the node before is gone', async () => {
    publishNodeInfo(gauge, { address: '127.0.0.1/32', port: 5433 });
    publishNodeInfo(gauge, { address: '127.0.0.1/32', port: 5434 });
    expect(await series()).toEqual([
      { labels: { address: '127.0.0.1/32', port: '5434' }, value: 1 },
    ]);
  });

  it("a Unix socket is 'socket', an unknown port empty", async () => {
    publishNodeInfo(gauge, { address: null, port: null });
    expect(await series()).toEqual([{ labels: { address: 'socket', port: '' }, value: 1 }]);
  });

  it('no node: no series', async () => {
    publishNodeInfo(gauge, { address: '127.0.0.1/32', port: 5433 });
    publishNodeInfo(gauge, null);
    expect(await series()).toEqual([]);
    expect(await registry.metrics()).not.toMatch(/^test_node_info\{/m);
  });
});
