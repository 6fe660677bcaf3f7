import type { AuthContext } from '@app/accounts';
import { CLIENT_CLOSED_REQUEST, RequestHandler, dispatchInternal } from './in-process-dispatch';

const caller = { accountId: 1 } as unknown as AuthContext;

describe('dispatchInternal: cancellation', () => {
  it('a cancelled call closes the response as a lost socket would and settles at once with 499', async () => {
    let closed = false;
    // A route that waits (like GET /jobs/:id?wait=60) and frees its slot when the client goes.
    const waiting: RequestHandler = (_req, res) => {
      res.once('close', () => {
        closed = true;
      });
    };
    const controller = new AbortController();
    const answer = dispatchInternal(waiting, {
      method: 'GET',
      url: '/api/v1/jobs/job_x?wait=60',
      caller,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    await expect(answer).resolves.toEqual({ status: CLIENT_CLOSED_REQUEST, headers: {}, text: '' });
    expect(closed).toBe(true);
  });

  it('an already cancelled call never reaches the handler', async () => {
    const handler = jest.fn();
    const controller = new AbortController();
    controller.abort();
    const answer = await dispatchInternal(handler, {
      method: 'GET',
      url: '/api/v1/usage',
      caller,
      signal: controller.signal,
    });
    expect(answer.status).toBe(CLIENT_CLOSED_REQUEST);
    expect(handler).not.toHaveBeenCalled();
  });

  it('a call answered before any cancellation keeps its answer', async () => {
    const controller = new AbortController();
    const answer = await dispatchInternal(
      (_req, res) => {
        res.statusCode = 200;
        res.end('{"success":true}');
      },
      { method: 'GET', url: '/api/v1/usage', caller, signal: controller.signal },
    );
    controller.abort();
    expect(answer).toMatchObject({ status: 200, text: '{"success":true}' });
  });
});
