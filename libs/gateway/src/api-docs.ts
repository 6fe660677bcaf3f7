import { ApiResponse } from '@nestjs/swagger';
import { z } from 'zod';
import { ERROR_STATUS, ErrorCode } from '@app/core';

/**
 * The public answers' shapes for the OpenAPI document (/docs), written once as zod schemas
 * beside each feature (`<feature>.schema.ts`, or in the library whose types are inferred from
 * them: libs/providers for research, libs/site-audit for the job record) and named with
 * `named` in the feature's schema file. /docs lists each named schema under
 * components.schemas; a controller method points at its envelope with `@ApiAnswer`.
 * test/foundation/openapi-answers.e2e-spec.ts validates real answers of a running instance
 * against the served document, so a shape and its documentation cannot drift apart.
 */
const answerSchemas = z.registry<{ id: string; description?: string }>();

/** Registers `schema` as components.schemas[id] of the public document. */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  answerSchemas.add(schema, description ? { id, description } : { id });
  return schema;
}

/** The spec's date formats (libs/core/src/time/format.schema.ts), for the answer schemas. */
export { plainDateSchema, recordTimestampSchema } from '@app/core';

/** What every answer's meta holds. */
export const baseMeta = {
  timestamp: z.string().meta({
    format: 'date-time',
    description: 'When the answer was made, ISO 8601 with offset',
    example: '2026-11-24T09:30:00.000+00:00',
  }),
  request_id: z.string().meta({
    description: 'The request id (also the X-Request-Id header); quote it to support',
  }),
};

/** meta.warnings of a success answer (libs/gateway/src/input-warnings.ts): absent when none. */
export const warningsMeta = z
  .array(
    z.object({
      code: z.enum(['unknown_parameter', 'unknown_field', 'value_replaced']).meta({
        description:
          'unknown_parameter / unknown_field: ignored; value_replaced: a value fell back to a default',
      }),
      field: z.string().meta({ description: 'The query parameter or body field, as sent' }),
      message: z.string().meta({ description: 'For people; may change' }),
      applied: z
        .union([z.string(), z.number()])
        .optional()
        .meta({ description: 'value_replaced: the value used instead' }),
    }),
  )
  .optional()
  .meta({
    description:
      'What the request sent that was not used as sent (the call succeeded and counted): unknown ' +
      'query parameters and body fields, values that fell back to a default. Absent when none.',
    example: [
      {
        code: 'unknown_parameter',
        field: 'limt',
        message: 'Unknown query parameter "limt" was ignored. Did you mean "limit"?',
      },
    ],
  });

/** `{success: true, data, meta}` named `id`: an operation's whole success answer. */
export function successEnvelope<D extends z.ZodType, M extends z.ZodRawShape>(
  id: string,
  data: D,
  meta: M = {} as M,
  description?: string,
) {
  return named(
    id,
    z.object({
      success: z.literal(true),
      data,
      meta: z.object({ ...baseMeta, ...meta, warnings: warningsMeta }),
    }),
    description,
  );
}

/** The error envelope of every error answer (the exception filter's, libs/gateway/src/envelope.ts). */
export const ErrorEnvelopeSchema = named(
  'ErrorEnvelope',
  z.object({
    success: z.literal(false),
    error: z.object({
      code: z
        .enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]])
        .meta({ description: 'Stable machine-readable code; the HTTP status follows from it' }),
      message: z.string().meta({ description: 'For people; may change' }),
      details: z
        .array(z.object({ field: z.string(), message: z.string() }))
        .optional()
        .meta({ description: 'Validation errors: one entry per field (the first rule it broke)' }),
    }),
    meta: z.object({
      ...baseMeta,
      request_id: baseMeta.request_id.optional(),
      retry_after: z.int().optional().meta({
        description: '429 per-minute limit: seconds to wait (also the Retry-After header)',
      }),
      limit: z.int().optional().meta({ description: 'The limit that was reached' }),
      resets_at: z.string().optional().meta({
        description:
          '429 monthly allowance or quota: when it resets (YYYY-MM-DD; a page budget: YYYY-MM-DD HH:MM:SS)',
      }),
      quota: z
        .string()
        .optional()
        .meta({ description: '429 QUOTA_EXCEEDED on /site-audit: which quota is used up' }),
      used: z.int().optional().meta({
        description:
          'How much of that quota (or of tracked_keywords, ai_visibility_projects, or the project’s prompts) is used',
      }),
      requested: z.int().optional().meta({
        description:
          '402 on a record limit (tracked_keywords, ai_visibility_projects, ai_visibility_prompts_per_project): what the refused write asked for',
      }),
      credits_required: z.int().optional().meta({ description: '402: credits the request needs' }),
    }),
  }),
);

/** Documents a method's success answer (status 200 unless given) as the named `envelope`. */
export function ApiAnswer(
  envelope: z.ZodType,
  options: { status?: number; description?: string } = {},
): MethodDecorator {
  const id = answerSchemas.get(envelope)?.id;
  if (!id) throw new Error('ApiAnswer: the envelope is not a named schema (use successEnvelope)');
  return ApiResponse({
    status: options.status ?? 200,
    description: options.description ?? 'Success',
    schema: { $ref: `#/components/schemas/${id}` },
  });
}

const SAFE_INT_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * Every named schema as OpenAPI 3.0 schema objects, referring to each other through
 * `#/components/schemas/<id>`. Optional members stay optional, nullable ones say so, and
 * objects stay open (no additionalProperties: false) so a member added later is not a
 * breaking change for strict clients.
 */
export function answerComponents(): Record<string, Record<string, unknown>> {
  const out = z.toJSONSchema(answerSchemas, {
    target: 'openapi-3.0',
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ jsonSchema }) => {
      const s = jsonSchema as Record<string, unknown>;
      // zod writes JavaScript's safe-integer range on every integer; it says nothing here.
      if (s.minimum === -SAFE_INT_BOUND) delete s.minimum;
      if (s.maximum === SAFE_INT_BOUND) delete s.maximum;
    },
  }).schemas;
  for (const schema of Object.values(out)) delete (schema as Record<string, unknown>).$id;
  return out as Record<string, Record<string, unknown>>;
}
