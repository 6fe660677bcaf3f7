import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiRequest, MeterState } from './request-context';
import type { AuthContext } from '@app/accounts';

/**
 * Marks a controller or handler as reachable without an API key (health, docs, report
 * pages, admin routes with their own guard). Everything else requires a key.
 */
export const Public = Reflector.createDecorator<boolean>({ transform: () => true });

/**
 * What a route costs. research: refused at the monthly cap; your-data: counted, never
 * refused at the cap; other: refused at the cap. Routes without it count as "other". A public
 * route's `@Endpoint` declaration sets it on the handler (its `group`).
 */
export type CostGroupName = 'research' | 'your-data' | 'other';
export const CostGroup = Reflector.createDecorator<CostGroupName>();

/** The authenticated caller (only on key-authenticated routes). */
export const CurrentAuth = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): AuthContext => {
    const req = ctx.switchToHttp().getRequest<ApiRequest>();
    if (!req.auth) throw new Error('CurrentAuth used on a route without key authentication');
    return req.auth;
  },
);

/** The monthly meter after this call. */
export const CurrentMeter = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): MeterState | undefined => {
    return ctx.switchToHttp().getRequest<ApiRequest>().meter;
  },
);

/** The request id of this call (for ledger rows and logs). */
export const RequestId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  return ctx.switchToHttp().getRequest<ApiRequest>().id;
});
