import type { AuthContext } from '@app/accounts';

type RequestId = string | number;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isRequestId = (v: unknown): v is RequestId =>
  (typeof v === 'string' && v.length <= 200) || (typeof v === 'number' && Number.isFinite(v));

/** The JSON-RPC messages of a POST body (one message or a batch). */
function messages(body: unknown): Record<string, unknown>[] {
  return (Array.isArray(body) ? body : [body]).filter(isRecord);
}

/**
 * The tool calls in flight on this process, so that a `notifications/cancelled` reaches them.
 * The endpoint is stateless: every POST gets its own server and transport, so the SDK, which
 * looks a cancelled request up among the requests of its own server, cannot find a call that
 * an earlier POST started. This registry can: each `tools/call` POST is registered under its
 * caller (account, key or connection) and JSON-RPC id until its response closes; a POST
 * carrying `notifications/cancelled {requestId}` of the same caller stops the matching calls,
 * which closes their transport and so aborts the tool handler's signal (a run_site_audit stops
 * waiting, its in-process GET /jobs?wait= is dropped). A caller can only reach its own calls;
 * two MCP clients of one key that use the same request id at the same time would both be
 * stopped (ids are per client, and a stateless endpoint has no session to tell them apart).
 * Per process: a cancellation landing on another API instance is not seen there (the call
 * then ends at its wait budget, or when the client closes the connection).
 */
export class InFlightCalls {
  private readonly calls = new Map<string, Set<() => void>>();

  /** Registers the body's tool calls; returns the function that unregisters them. */
  track(caller: AuthContext, body: unknown, stop: () => void): () => void {
    const keys = messages(body)
      .filter((m) => m.method === 'tools/call' && isRequestId(m.id))
      .map((m) => key(caller, m.id as RequestId));
    for (const k of keys) {
      const set = this.calls.get(k) ?? new Set();
      set.add(stop);
      this.calls.set(k, set);
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const k of keys) {
        const set = this.calls.get(k);
        set?.delete(stop);
        if (set?.size === 0) this.calls.delete(k);
      }
    };
  }

  /** Stops the caller's calls named by the body's `notifications/cancelled`; how many were stopped. */
  cancel(caller: AuthContext, body: unknown): number {
    let stopped = 0;
    for (const m of messages(body)) {
      if (m.method !== 'notifications/cancelled' || !isRecord(m.params)) continue;
      const id = m.params.requestId;
      if (!isRequestId(id)) continue;
      for (const stop of [...(this.calls.get(key(caller, id)) ?? [])]) {
        stopped += 1;
        stop();
      }
    }
    return stopped;
  }

  /** Calls registered now (tests and diagnostics). */
  get size(): number {
    let n = 0;
    for (const set of this.calls.values()) n += set.size;
    return n;
  }
}

function key(caller: AuthContext, id: RequestId): string {
  return `${caller.accountId}:${caller.keyId}:${caller.grantId}:${typeof id}:${String(id)}`;
}
