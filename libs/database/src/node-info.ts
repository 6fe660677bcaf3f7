import { Gauge } from 'prom-client';

/** A PostgreSQL node as a connection reached it (`inet_server_addr()`, `inet_server_port()`). */
export interface NodeAddress {
  /** null over a Unix socket */
  address: string | null;
  port: number | null;
}

/**
 * Publishes the node a connection reached as the one series of an `…_node_info{address, port}`
 * gauge (db_primary_node_info, db_standby_node_info): the gauge is reset, then set to 1 on the
 * node (`socket` as the address over a Unix socket, an empty port when unknown); no series
 * when `node` is null.
 */
export function publishNodeInfo(gauge: Gauge<'address' | 'port'>, node: NodeAddress | null): void {
  gauge.reset();
  if (node) gauge.set({ address: node.address ?? 'socket', port: String(node.port ?? '') }, 1);
}
