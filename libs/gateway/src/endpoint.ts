import { RequestMethod, SetMetadata, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ApiOperation } from '@nestjs/swagger';
import { z } from 'zod';
import { ApiAnswer } from './api-docs';
import { CostGroup, CostGroupName } from './decorators';
import { ErrorName } from './error-examples';

/**
 * The example call of an endpoint's code samples (x-codeSamples in /docs; the samples are
 * run by test/client/code-samples.e2e-spec.ts, and scripts/mcp-conformance.js calls the MCP
 * tool with the same arguments).
 */
export interface SampleCall {
  /** Query parameters (in this order), path parameters and JSON body of the example call. */
  query?: Record<string, string | number>;
  path?: Record<string, string>;
  body?: Record<string, unknown>;
  /** The TypeScript lines after the client is made (they may use `client`). */
  typescript: string;
  /** What the Python sample prints of the answer (an expression over `answer`). */
  pythonPrint: string;
}

/**
 * The arguments of the endpoint's MCP tool for its example call: the query, path and body of
 * the sample, a path parameter that is an id (all digits) as an integer, as the tools take ids.
 * The declarations suite and scripts/mcp-conformance.js call the tools with them.
 */
export function sampleToolArgs(sample: SampleCall): Record<string, unknown> {
  const path = Object.entries(sample.path ?? {}).map(([name, value]) => [
    name,
    /^\d+$/.test(value) ? Number(value) : value,
  ]);
  return { ...sample.query, ...Object.fromEntries(path), ...sample.body };
}

/** The MCP tool an endpoint backs, or why it backs none. */
type McpLink = { mcp: string; noMcpTool?: never } | { noMcpTool: string; mcp?: never };

/**
 * Everything a public route is, declared once beside its handler. The OpenAPI document, the
 * metering guard (cost group), the fuzz and answers suites' route lists, the checks that the
 * typed client and the MCP server cover it (test/foundation/endpoint-declarations.e2e-spec.ts)
 * and scripts/mcp-conformance.js all read it.
 */
export type EndpointDeclaration = McpLink & {
  /** Stable operation name (the typed client's and the code samples'). */
  operationId: string;
  summary: string;
  description?: string;
  /** What the call costs: research (refused at the cap, quota), your-data, other. */
  group: CostGroupName;
  /** The named success envelope (successEnvelope / named), documented as `status`. */
  answer: z.ZodType;
  status?: number;
  answerDescription?: string;
  /** The errors of this route besides those every key-authenticated route can answer. */
  errors: ErrorName[];
  /** The cost line of the document ("**Cost:** …"). */
  cost: string;
  /** The example call of the code samples. */
  sample: SampleCall;
  /** Not in the API specification: marked `x-spec-extension: true` in the document. */
  extension?: true;
  /** The typed client's method for it (SeoApiClient.prototype[client]). */
  client: string;
};

/** A declared route: its HTTP method and OpenAPI path (`/api/v1/jobs/{job_id}`). */
export interface DeclaredEndpoint {
  method: string;
  path: string;
  controller: Type<unknown>;
  handler: string;
  declaration: EndpointDeclaration;
}

export const ENDPOINT_METADATA = 'seo-api:endpoint';

const declared: Array<{ controller: Type<unknown>; handler: string }> = [];

/**
 * Declares a public route on its controller method: cost group (what MeteringGuard reads),
 * OpenAPI summary, description and success answer, and the rest of EndpointDeclaration.
 */
export function Endpoint(declaration: EndpointDeclaration): MethodDecorator {
  const decorators: MethodDecorator[] = [
    SetMetadata(ENDPOINT_METADATA, declaration),
    CostGroup(declaration.group),
    ApiOperation({ summary: declaration.summary, description: declaration.description }),
    ApiAnswer(declaration.answer, {
      status: declaration.status,
      description: declaration.answerDescription,
    }),
  ];
  return (target, key, descriptor) => {
    declared.push({ controller: target.constructor as Type<unknown>, handler: String(key) });
    for (const decorate of decorators) decorate(target, key, descriptor);
  };
}

/** `api/v1/jobs` + `:job_id` → `/api/v1/jobs/{job_id}`. */
function openApiPath(...parts: unknown[]): string {
  const joined = parts
    .map((p) => (typeof p === 'string' ? p : '').replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/');
  return `/${joined}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The route of a controller method, as Nest registers it, and its declaration if any. */
export function routeOf(
  controller: Type<unknown>,
  handler: string,
): { method: string; path: string; declaration?: EndpointDeclaration } | null {
  // The descriptor, not the member: reading a getter of the controller would run it.
  const fn: unknown = Object.getOwnPropertyDescriptor(controller.prototype, handler)?.value;
  if (typeof fn !== 'function') return null;
  const method = Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod | undefined;
  if (method === undefined) return null;
  return {
    method: RequestMethod[method].toLowerCase(),
    path: openApiPath(
      Reflect.getMetadata(PATH_METADATA, controller),
      Reflect.getMetadata(PATH_METADATA, fn),
    ),
    declaration: Reflect.getMetadata(ENDPOINT_METADATA, fn) as EndpointDeclaration | undefined,
  };
}

/**
 * Every route declared with @Endpoint in the controllers loaded so far (a controller's file
 * declares its routes when it is imported; an app has imported all of its controllers).
 */
export function declaredEndpoints(): DeclaredEndpoint[] {
  return declared.map(({ controller, handler }) => {
    const route = routeOf(controller, handler);
    if (!route?.declaration)
      throw new Error(`@Endpoint on ${controller.name}.${handler}, which is not a route`);
    return { ...route, declaration: route.declaration, controller, handler };
  });
}

/** The cost line of every your-data route. */
export const YOUR_DATA_COST =
  'Your-data call: one API call, never refused at the monthly cap. No feature quota, no credits.';
