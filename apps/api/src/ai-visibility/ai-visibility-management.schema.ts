import { z } from 'zod';
import { named, recordTimestampSchema, successEnvelope } from '@app/gateway';
import { AiProjectSchema } from './ai-visibility.schema';
import { AI_ENGINES, TRACKING_FREQUENCIES } from './ai-visibility-management.dto';

/** A tracked competitor of a project. */
const AiCompetitorSchema = named(
  'AiVisibilityTrackedCompetitor',
  z.object({
    name: z.string().meta({ example: 'Rival' }),
    domain: z.string().meta({ description: 'Normalised like the project’s', example: 'rival.com' }),
  }),
);

const customerMembers = {
  prompts: z.array(z.string()).meta({ description: 'The questions asked at each scan, in order' }),
  brand_aliases: z.array(z.string()).meta({ description: 'Other names the brand goes by' }),
  competitors: z.array(AiCompetitorSchema).max(20),
};

/** data of POST /api/v1/ai-visibility/projects: the spec's project plus the customer's members. */
const AiProjectCreatedSchema = named(
  'AiVisibilityProjectCreated',
  AiProjectSchema.extend(customerMembers),
);

/** data of GET /api/v1/ai-visibility/projects/{project_id}/settings (and of the PATCH). */
const AiProjectSettingsSchema = named(
  'AiVisibilityProjectSettings',
  z.object({
    project_id: z.int(),
    brand_aliases: customerMembers.brand_aliases,
    prompts: customerMembers.prompts,
    competitors: customerMembers.competitors,
    ai_engine: z.string().meta({
      description: `${AI_ENGINES.join(', ')} (a project made through the admin ingestion may carry another)`,
      example: 'chatgpt',
    }),
    tracking_frequency: z.string().meta({
      description: TRACKING_FREQUENCIES.join(' or '),
      example: 'weekly',
    }),
    next_scan_at: recordTimestampSchema.nullable().meta({
      description:
        'When the next scan starts (UTC); null: never scanned by the service (a project without prompts)',
    }),
  }),
);

export const AiProjectCreatedAnswerSchema = successEnvelope(
  'AiVisibilityProjectCreatedAnswer',
  AiProjectCreatedSchema,
);

export const AiProjectSettingsAnswerSchema = successEnvelope(
  'AiVisibilityProjectSettingsAnswer',
  AiProjectSettingsSchema,
);

export const AiProjectDeletedAnswerSchema = successEnvelope(
  'AiVisibilityProjectDeletedAnswer',
  named('AiVisibilityProjectDeleted', z.object({ project_id: z.int(), deleted: z.literal(true) })),
);

export type AiProjectCreated = z.infer<typeof AiProjectCreatedSchema>;
export type AiProjectSettings = z.infer<typeof AiProjectSettingsSchema>;
