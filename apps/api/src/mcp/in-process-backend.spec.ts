import type { IncomingMessage } from 'node:http';
import type { AuthContext } from '@app/accounts';
import { InProcessBackend } from './in-process-backend';
import { RequestHandler } from './in-process-dispatch';

const caller = { accountId: 1 } as unknown as AuthContext;

describe('InProcessBackend: the Idempotency-Key of a tool POST reaches the REST route', () => {
  it('passes the key as the request header; none when the tool gives none', async () => {
    const seen: IncomingMessage[] = [];
    const handler: RequestHandler = (req, res) => {
      seen.push(req);
      res.statusCode = 200;
      res.end('{"success":true,"data":{},"meta":{}}');
    };
    const backend = new InProcessBackend(handler, caller);
    await backend.request('POST', '/site-audit', { body: { url: 'x' }, idempotencyKey: 'k-1' });
    await backend.request('GET', '/usage');
    expect(seen[0].headers['idempotency-key']).toBe('k-1');
    expect(seen[0].rawHeaders).toEqual(expect.arrayContaining(['idempotency-key', 'k-1']));
    expect(seen[1].headers['idempotency-key']).toBeUndefined();
  });
});
