import {
  CanActivate,
  Controller,
  ExecutionContext,
  Get,
  Injectable,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiError, metricsRegistry } from '@app/core';
import { Public } from '@app/gateway';
import { OpsAuth } from './ops-auth';
import { OpsQueues } from './ops-queues';

/** GET /metrics: the admin token or METRICS_TOKEN as a bearer; 404 when neither is set. */
@Injectable()
export class MetricsGuard implements CanActivate {
  constructor(private readonly auth: OpsAuth) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    if (!this.auth.metricsEnabled) {
      throw new ApiError('NOT_FOUND', `Unknown endpoint: ${req.method} ${req.path}`);
    }
    const ok = this.auth.bearerOk(req, true);
    await this.auth.throttleOrThrow(req, !ok);
    if (!ok) throw new ApiError('UNAUTHORIZED', 'Missing or invalid metrics token.');
    return true;
  }
}

/**
 * Prometheus text format of this process's registry (libs/core metrics), with the queue
 * depths sampled at scrape time. Outside the customer pipeline: no API key, not metered,
 * not in either OpenAPI document.
 */
@ApiExcludeController()
@Public()
@Controller('metrics')
@UseGuards(MetricsGuard)
export class MetricsController {
  constructor(private readonly queues: OpsQueues) {}

  @Get()
  async scrape(@Res() res: Response): Promise<void> {
    await this.queues.sample();
    const body = await metricsRegistry.metrics();
    res.status(200);
    res.setHeader('Content-Type', metricsRegistry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(body);
  }
}
