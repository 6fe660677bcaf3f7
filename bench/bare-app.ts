import 'reflect-metadata';
import {
  CallHandler,
  Controller,
  ExecutionContext,
  Get,
  Injectable,
  Module,
  NestInterceptor,
} from '@nestjs/common';
import { APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { Observable, map } from 'rxjs';
import { isoTimestamp } from '@app/core';
import { EnvelopeExpressAdapter } from '@app/gateway';

/**
 * The baselines: a bare NestJS 11 route on platform-express, no pipeline, no database.
 * BARE_ENVELOPE picks how `{success, data, meta}` is added around its `{ok: true}`:
 * - `none` (default): not at all;
 * - `adapter`: our EnvelopeExpressAdapter's reply(), as the API does;
 * - `interceptor`: the textbook global envelope interceptor (NestJS sample 01-cats-app's
 *   TransformInterceptor), the design card's variant, re-measured on every Nest upgrade.
 */
@Controller('bare')
class BareController {
  @Get()
  get(): { ok: boolean } {
    return { ok: true };
  }
}

@Injectable()
class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((data: unknown) => ({
        success: true,
        data,
        meta: { timestamp: isoTimestamp(new Date()) },
      })),
    );
  }
}

const variant = process.env.BARE_ENVELOPE ?? 'none';

@Module({
  controllers: [BareController],
  providers:
    variant === 'interceptor' ? [{ provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor }] : [],
})
class BareModule {}

async function main(): Promise<void> {
  const app =
    variant === 'adapter'
      ? await NestFactory.create(BareModule, new EnvelopeExpressAdapter(), { logger: false })
      : await NestFactory.create(BareModule, { logger: false });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 3901), '127.0.0.1');
  console.log('ready');
}

void main();
