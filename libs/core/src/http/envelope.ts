/** Shapes of the public response envelope. Only the envelope interceptor and the exception filter build them. */
export interface SuccessEnvelope<T = unknown> {
  success: true;
  data: T;
  meta: Record<string, unknown>;
}

export interface ErrorEnvelope {
  success: false;
  error: { code: string; message: string; details?: unknown };
  meta: Record<string, unknown>;
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
