import { z } from 'zod';
import { GSC_DIMENSIONS, GSC_SORTS } from '@app/core';
import { named, plainDateSchema, recordTimestampSchema, successEnvelope } from '@app/gateway';

/** One data.properties[] entry of GET /api/v1/gsc/properties (spec "Search-console property"). */
const GscPropertySchema = named(
  'GscProperty',
  z.object({
    property_id: z.int(),
    property_uri: z.string().meta({ example: 'sc-domain:example.com' }),
    display_name: z.string(),
    status: z.string().meta({ example: 'active' }),
    last_synced_at: recordTimestampSchema
      .nullable()
      .meta({ description: 'null before the first sync' }),
    last_sync_status: z.string().nullable(),
    google_email: z.string().meta({ format: 'email' }),
    is_sandbox: z.boolean(),
  }),
);

export const GscPropertiesAnswerSchema = successEnvelope(
  'GscPropertiesAnswer',
  named('GscProperties', z.object({ properties: z.array(GscPropertySchema), count: z.int() })),
);

const metrics = {
  clicks: z.int(),
  impressions: z.int(),
  ctr: z
    .number()
    .nullable()
    .meta({ description: 'clicks / impressions, percent; null without impressions' }),
  position: z
    .number()
    .nullable()
    .meta({ description: 'Impression-weighted mean position; null without impressions' }),
};

/** data of GET /api/v1/gsc/queries (spec "Search-console rows"). */
const GscQueriesSchema = named(
  'GscQueries',
  z.object({
    property_id: z.int(),
    dim: z.enum(GSC_DIMENSIONS).meta({ description: 'The dimension applied' }),
    from: plainDateSchema,
    to: plainDateSchema,
    totals: z.object(metrics).meta({ description: 'The whole period, whatever the limit' }),
    rows: z.array(z.object({ key: z.string(), ...metrics })),
    total_rows: z.int().meta({ description: 'Distinct keys in the period (not rows returned)' }),
  }),
);

export const GscQueriesAnswerSchema = successEnvelope('GscQueriesAnswer', GscQueriesSchema, {
  sort: z.enum(GSC_SORTS),
  dir: z.enum(['desc', 'asc']),
  limit: z.int(),
});

/** One data.properties[] entry of GET /api/v1/gsc/properties. */
export type GscProperty = z.infer<typeof GscPropertySchema>;
/** data of GET /api/v1/gsc/queries. */
export type GscQueries = z.infer<typeof GscQueriesSchema>;
