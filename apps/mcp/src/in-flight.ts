import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

interface InFlight {
  /** Requests read and not yet answered. */
  count(): number;
  /** Resolves once no request is waiting for its answer (at once when none is). */
  idle(): Promise<void>;
}

type Id = string | number;

const requestId = (m: JSONRPCMessage): Id | undefined =>
  'method' in m && 'id' in m ? (m.id as Id) : undefined;
const answerId = (m: JSONRPCMessage): Id | undefined =>
  !('method' in m) && 'id' in m && ('result' in m || 'error' in m) ? (m.id as Id) : undefined;

/**
 * Counts the requests a connected transport has received and not yet answered, by wrapping
 * its onmessage (set by the server on connect) and send. Call after server.connect().
 */
export function trackInFlight(transport: Transport): InFlight {
  const pending = new Set<Id>();
  let waiters: Array<() => void> = [];
  const settle = () => {
    if (pending.size > 0) return;
    const done = waiters;
    waiters = [];
    done.forEach((resolve) => resolve());
  };
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = requestId(message);
    if (id !== undefined) pending.add(id);
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      const id = answerId(message);
      if (id !== undefined && pending.delete(id)) settle();
    }
  };
  return {
    count: () => pending.size,
    idle: () =>
      pending.size === 0 ? Promise.resolve() : new Promise<void>((r) => waiters.push(r)),
  };
}
