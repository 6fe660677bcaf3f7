import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { Clock, SystemClock, TopLevelBody, WithMeta, isoTimestamp } from '@app/core';
import { ApiRequest } from './request-context';

/**
 * Builds `{success, data, meta}` from what a handler returned: plain data, `withMeta(data,
 * meta)` for extra meta members, or a TopLevelBody (the 202 job acceptance). Strings,
 * buffers and files pass through untouched (HTML pages use @Res() anyway).
 */
export function toEnvelope(result: unknown, requestId: string | undefined, now: Date): unknown {
  if (typeof result === 'string' || Buffer.isBuffer(result) || result instanceof StreamableFile)
    return result;
  const meta = { timestamp: isoTimestamp(now), request_id: requestId };
  if (result instanceof TopLevelBody)
    return { success: true, ...result.body, meta: { ...meta, ...result.meta } };
  if (result instanceof WithMeta)
    return { success: true, data: result.data, meta: { ...meta, ...result.meta } };
  return { success: true, data: result ?? {}, meta };
}

/**
 * platform-express with the success envelope applied where Nest writes a handler's result,
 * the one place every route's answer passes. This does what a global interceptor would,
 * without the rxjs chain and AsyncResource Nest 11 wraps around every interceptor call
 * (measured at about a quarter of the hot path's throughput; docs/performance.md). Errors
 * never come here: the exception filter writes the error envelope itself.
 */
export class EnvelopeExpressAdapter extends ExpressAdapter {
  private clock: Clock = new SystemClock();

  /** The application's Clock (tests inject a ManualClock). */
  useClock(clock: Clock): this {
    this.clock = clock;
    return this;
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    const req = response.req as ApiRequest | undefined;
    return super.reply(response, toEnvelope(body, req?.id, this.clock.now()), statusCode);
  }
}
