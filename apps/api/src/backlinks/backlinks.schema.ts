import { named, successEnvelope } from '@app/gateway';
import {
  BacklinkInsightsSchema,
  BacklinkOverviewSchema,
  BacklinkProfileSchema,
  BacklinkSchema,
} from '@app/providers';
import { researchMeta } from '../research/research.schema';

// The shapes are the provider port's (libs/providers/src/seo-data.schema.ts); here they get
// their names in the OpenAPI document, in this order.
named('BacklinkOverview', BacklinkOverviewSchema);
named('BacklinkInsights', BacklinkInsightsSchema);
named('Backlink', BacklinkSchema);

/** data of GET /api/v1/backlinks (spec "Backlink profile"). */
export const BacklinksAnswerSchema = successEnvelope(
  'BacklinksAnswer',
  named('BacklinkProfile', BacklinkProfileSchema),
  researchMeta,
);
