import type { ErrorCode } from '../errors/error-codes';

/**
 * Shapes of the public response envelope (spec: Response envelope). The HTTP adapter's
 * `reply()` builds the success shapes and the exception filter the error shape; both go
 * through the builders in libs/gateway/src/envelope.ts, typed by these interfaces.
 */
export interface EnvelopeMeta {
  /** ISO 8601 with offset. */
  timestamp: string;
  request_id?: string;
  [member: string]: unknown;
}

export interface SuccessEnvelope<T = unknown> {
  success: true;
  data: T;
  meta: EnvelopeMeta;
}

/** The documented exception: the 202 job acceptance has job_id, status and poll at top level. */
export interface TopLevelEnvelope {
  success: true;
  meta: EnvelopeMeta;
  [member: string]: unknown;
}

export interface ErrorEnvelope {
  success: false;
  error: { code: ErrorCode; message: string; details?: unknown };
  meta: EnvelopeMeta;
}

/** A handler result that adds members to meta beside the data. */
export class WithMeta<T = unknown> {
  constructor(
    readonly data: T,
    readonly meta: Record<string, unknown>,
  ) {}
}

export function withMeta<T>(data: T, meta: Record<string, unknown>): WithMeta<T> {
  return new WithMeta(data, meta);
}

/**
 * A handler result sent as its own top-level body (success, meta timestamp and request id
 * are still added). Used only for the documented exception: the 202 job acceptance.
 */
export class TopLevelBody {
  constructor(
    readonly body: Record<string, unknown>,
    readonly meta: Record<string, unknown> = {},
  ) {}
}
