import { z } from 'zod';
import { named, successEnvelope } from '@app/gateway';
import { KeywordMetricsSchema, KeywordResearchSchema, RelatedKeywordSchema } from '@app/providers';
import { researchMeta } from '../research/research.schema';

// The shapes are the provider port's (libs/providers/src/seo-data.schema.ts); here they get
// their names in the OpenAPI document, in this order.
named('KeywordMetrics', KeywordMetricsSchema);
named('RelatedKeyword', RelatedKeywordSchema);

/** data of POST /api/v1/keyword-research. */
export const KeywordResearchAnswerSchema = successEnvelope(
  'KeywordResearchAnswer',
  named('KeywordResearch', KeywordResearchSchema),
  researchMeta,
);

/** data of GET /api/v1/keyword-research/locations. */
const LocationsSchema = named(
  'Locations',
  z.object({
    locations: z.array(
      z.object({
        location_code: z.int().meta({ example: 2840 }),
        location_name: z.string().meta({ example: 'United States' }),
        country_iso: z.string().meta({ example: 'US' }),
        language_code: z.string().meta({ example: 'en' }),
      }),
    ),
    count: z.int(),
    note: z.string(),
  }),
);

export const LocationsAnswerSchema = successEnvelope('LocationsAnswer', LocationsSchema);
