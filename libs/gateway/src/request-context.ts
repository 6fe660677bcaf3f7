import type { Request } from 'express';
import type { AuthContext } from '@app/accounts';

export interface MeterState {
  used: number;
  limit: number | null;
  /** The month counted in: PostgreSQL's (YYYY-MM-DD, its first day). */
  periodStart: string;
}

/**
 * Where an in-process dispatch (the hosted MCP endpoint running a REST route for a tool call)
 * puts the caller it already authenticated. A symbol property of the request object: no
 * header, query or body can set it, so it is unreachable from outside the process.
 */
export const INTERNAL_CALLER = Symbol('seo-api.internal-caller');

/** The express request as the pipeline leaves it. */
export interface ApiRequest extends Request {
  /** Request id (X-Request-Id), set first by the request-lifecycle middleware (access-log.ts). */
  id: string;
  /** The caller, set by the auth guard on key-authenticated routes. */
  auth?: AuthContext;
  /** The monthly meter after this call, set by the metering guard. */
  meter?: MeterState;
  /** Set only by an in-process dispatch (see INTERNAL_CALLER). */
  [INTERNAL_CALLER]?: AuthContext;
}
