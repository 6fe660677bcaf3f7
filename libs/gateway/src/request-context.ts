import type { Request } from 'express';
import type { AuthContext } from '@app/accounts';

export interface MeterState {
  used: number;
  limit: number | null;
}

/** The express request as the pipeline leaves it. */
export interface ApiRequest extends Request {
  /** Request id (X-Request-Id), set first by the request-id middleware. */
  id: string;
  /** The caller, set by the auth guard on key-authenticated routes. */
  auth?: AuthContext;
  /** The monthly meter after this call, set by the metering guard. */
  meter?: MeterState;
}
