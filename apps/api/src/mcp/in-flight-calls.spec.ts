import type { AuthContext } from '@app/accounts';
import { InFlightCalls } from './in-flight-calls';

const caller = (accountId: number, keyId = 1, grantId = 0) =>
  ({ accountId, keyId, grantId }) as AuthContext;
const call = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: {} });
const cancelled = (requestId: unknown) => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId, reason: 'timeout' },
});

describe('InFlightCalls (notifications/cancelled on the stateless /mcp endpoint)', () => {
  it("stops the caller's call with that id, and only it", () => {
    const calls = new InFlightCalls();
    const stopped: string[] = [];
    calls.track(caller(1), call(3), () => stopped.push('a3'));
    calls.track(caller(1), call(4), () => stopped.push('a4'));
    calls.track(caller(2), call(3), () => stopped.push('b3'));
    calls.track(caller(1, 2), call(3), () => stopped.push('other key'));
    calls.track(caller(1), call('3'), () => stopped.push('string id'));
    expect(calls.cancel(caller(1), cancelled(3))).toBe(1);
    expect(stopped).toEqual(['a3']);
  });

  it('a finished call is forgotten; batches, hostile and malformed bodies are ignored safely', () => {
    const calls = new InFlightCalls();
    const stopped: number[] = [];
    const untrack = calls.track(
      caller(1),
      [call(1), call(2), { id: 9, method: 'tools/list' }],
      () => stopped.push(1),
    );
    expect(calls.size).toBe(2);
    untrack();
    untrack();
    expect(calls.size).toBe(0);
    expect(calls.cancel(caller(1), [cancelled(1), cancelled(2)])).toBe(0);
    for (const body of [
      null,
      'x',
      42,
      [null, 1],
      { method: 'notifications/cancelled' },
      { method: 'notifications/cancelled', params: { requestId: { a: 1 } } },
      { method: 'notifications/cancelled', params: { requestId: 'x'.repeat(5000) } },
      { method: '__proto__', params: { requestId: 1 } },
    ]) {
      expect(calls.cancel(caller(1), body)).toBe(0);
      expect(calls.track(caller(1), body, () => stopped.push(2))).toEqual(expect.any(Function));
    }
    expect(calls.size).toBe(0);
    expect(stopped).toEqual([]);
  });
});
