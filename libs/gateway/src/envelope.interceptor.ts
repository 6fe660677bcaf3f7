import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, map } from 'rxjs';
import { Clock, TopLevelBody, WithMeta, isoTimestamp } from '@app/core';
import { ApiRequest } from './request-context';

/**
 * Builds `{success, data, meta}` from what handlers return. Handlers return plain data,
 * `withMeta(data, meta)` for extra meta members, or a TopLevelBody for the 202 job
 * acceptance. HTML and other non-JSON routes skip this with @Res() / their own handling.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly clock: Clock) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    return next.handle().pipe(
      map((result: unknown) => {
        const meta = { timestamp: isoTimestamp(this.clock.now()), request_id: req.id };
        if (result instanceof TopLevelBody) {
          return { success: true, ...result.body, meta: { ...meta, ...result.meta } };
        }
        if (result instanceof WithMeta) {
          return { success: true, data: result.data, meta: { ...meta, ...result.meta } };
        }
        if (typeof result === 'string' || Buffer.isBuffer(result)) return result;
        return { success: true, data: result ?? {}, meta };
      }),
    );
  }
}
