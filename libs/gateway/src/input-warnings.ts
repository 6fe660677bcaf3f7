import { CanActivate, ExecutionContext, Injectable, type Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { getMetadataStorage } from 'class-validator';
import { ENDPOINT_METADATA } from './endpoint';
import type { ApiRequest } from './request-context';

/**
 * Something the API did not use as sent, named in `meta.warnings` of a success answer (the
 * call still succeeds and counts): an unknown query parameter or body field (ignored), or a
 * value the spec lets fall back to a default (`applied` says what was used instead).
 */
export interface ApiWarning {
  code: 'unknown_parameter' | 'unknown_field' | 'value_replaced';
  /** The query parameter or body field, as sent (shortened past 64 characters). */
  field: string;
  message: string;
  /** value_replaced: the value used instead. */
  applied?: string | number;
}

/** Where the pipeline collects a request's warnings until the answer is written. */
export const WARNINGS = Symbol('seo-api.warnings');

export type WarnedRequest = ApiRequest & { [WARNINGS]?: ApiWarning[] };

/** Adds a warning to the request's answer. */
export function warn(req: WarnedRequest, warning: ApiWarning): void {
  (req[WARNINGS] ??= []).push(warning);
}

/** The request's warnings, if any (the envelope adds them to meta). */
export function warningsOf(req: WarnedRequest | undefined): ApiWarning[] | undefined {
  return req?.[WARNINGS];
}

const MAX_SHOWN = 64;
/** A name or value from the request as a warning shows it: at most 64 characters. */
export function shown(value: string): string {
  return value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
}

/** A value the spec lets fall back: `field` was `given`, `applied` was used. */
export function replacedValue(field: string, given: string, applied: string | number): ApiWarning {
  return {
    code: 'value_replaced',
    field,
    message: `${field} "${shown(given)}" is not recognized; ${applied} was applied instead.`,
    applied,
  };
}

/** Names every request may carry whatever the route (the discouraged key parameter). */
const ALWAYS_KNOWN = ['api_key'];

/** What a route reads from the query and the body; null: it reads the raw request itself. */
interface RouteInputs {
  query: ReadonlySet<string>;
  body: ReadonlySet<string>;
}

const inputsByHandler = new WeakMap<object, RouteInputs | null>();

/** The members a DTO class declares (its validation decorators name them). */
function dtoMembers(dto: unknown): string[] {
  if (typeof dto !== 'function' || [String, Number, Boolean, Array, Object].includes(dto as never))
    return [];
  const metadata = getMetadataStorage().getTargetValidationMetadatas(
    dto as Type<unknown>,
    '',
    true,
    false,
  );
  return [...new Set(metadata.map((m) => m.propertyName))];
}

/** Reads, once per handler, which query parameters and body fields its arguments take. */
function routeInputs(controller: Type<unknown>, handler: object & { name: string }) {
  if (inputsByHandler.has(handler)) return inputsByHandler.get(handler)!;
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {}) as Record<
    string,
    { index: number; data?: unknown }
  >;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, handler.name) ??
    []) as unknown[];
  const query = new Set(ALWAYS_KNOWN);
  const body = new Set<string>();
  let inputs: RouteInputs | null = { query, body };
  for (const [key, arg] of Object.entries(args)) {
    const type = Number(key.split(':')[0]);
    if (type === RouteParamtypes.REQUEST) inputs = null;
    const into =
      type === RouteParamtypes.QUERY ? query : type === RouteParamtypes.BODY ? body : null;
    if (!into) continue;
    if (typeof arg.data === 'string') into.add(arg.data);
    else for (const member of dtoMembers(types[arg.index])) into.add(member);
  }
  inputsByHandler.set(handler, inputs);
  return inputs;
}

/**
 * Names each query parameter and body field a public route (one with @Endpoint) does not
 * take, as a warning: the call goes on as before (the spec ignores them), but the caller
 * learns that `limt` was not `limit`. What a route takes is read once per handler from its
 * argument decorators and DTO classes; a route that reads the raw request is left alone.
 */
@Injectable()
export class InputWarningsGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    if (!Reflect.getMetadata(ENDPOINT_METADATA, handler)) return true;
    const inputs = routeInputs(context.getClass(), handler);
    if (!inputs) return true;
    const req = context.switchToHttp().getRequest<WarnedRequest>();
    const query = req.query as Record<string, unknown> | undefined;
    if (query) {
      for (const name of Object.keys(query))
        if (!inputs.query.has(name)) warn(req, unknown('unknown_parameter', name, inputs.query));
    }
    const body: unknown = req.body;
    if (body && typeof body === 'object' && !Array.isArray(body) && !Buffer.isBuffer(body)) {
      for (const name of Object.keys(body))
        if (!inputs.body.has(name)) warn(req, unknown('unknown_field', name, inputs.body));
    }
    return true;
  }
}

function unknown(
  code: 'unknown_parameter' | 'unknown_field',
  name: string,
  known: ReadonlySet<string>,
): ApiWarning {
  const what = code === 'unknown_parameter' ? 'query parameter' : 'body field';
  const near = closest(name, known);
  return {
    code,
    field: shown(name),
    message:
      `Unknown ${what} "${shown(name)}" was ignored.` + (near ? ` Did you mean "${near}"?` : ''),
  };
}

/** The known name within two edits of `name` (a typo), if any. */
function closest(name: string, known: ReadonlySet<string>): string | null {
  if (name.length > MAX_SHOWN) return null;
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of known) {
    if (candidate === 'api_key') continue;
    const d = editDistance(name.toLowerCase(), candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length];
}
