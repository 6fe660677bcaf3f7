import { z } from 'zod';
import { named, recordTimestampSchema, successEnvelope } from '@app/gateway';
import { TrackedKeywordSchema } from './rank.schema';

/** A rank project of the management routes (docs/rank-management.md). */
export const RankProjectSchema = named(
  'RankProject',
  z.object({
    project_id: z.int(),
    domain: z.string().meta({
      description: 'Normalised: lower case, no scheme, path, port or leading www.',
      example: 'example.com',
    }),
    name: z.string().meta({ description: 'Defaults to the domain' }),
    match: z.enum(['domain', 'exact_host']).meta({
      description: 'domain: the domain and its subdomains rank; exact_host: only the exact host',
    }),
    tracking: z.boolean().meta({ description: 'Whether the service checks the keywords daily' }),
    keywords_count: z.int(),
    created_at: recordTimestampSchema,
    updated_at: recordTimestampSchema,
  }),
);

export const RankProjectsAnswerSchema = successEnvelope(
  'RankProjectsAnswer',
  named('RankProjects', z.object({ projects: z.array(RankProjectSchema), count: z.int() })),
);

export const RankProjectAnswerSchema = successEnvelope('RankProjectAnswer', RankProjectSchema);

export const RankProjectDeletedAnswerSchema = successEnvelope(
  'RankProjectDeletedAnswer',
  named(
    'RankProjectDeleted',
    z.object({
      project_id: z.int(),
      deleted: z.literal(true),
      keywords_deleted: z.int().meta({ description: 'Its keywords, deleted with their history' }),
    }),
  ),
);

export const RankKeywordsAddedAnswerSchema = successEnvelope(
  'RankKeywordsAddedAnswer',
  named(
    'RankKeywordsAdded',
    z.object({
      added: z.array(TrackedKeywordSchema).meta({ description: 'New keywords (status pending)' }),
      already_tracked: z.array(TrackedKeywordSchema).meta({
        description:
          'Items the project already tracks (same keyword, country, language, device), unchanged',
      }),
      tracked_keywords: z.object({
        used: z.int().meta({ description: 'Keywords the account tracks after this batch' }),
        limit: z.int().meta({ description: 'The plan’s tracked_keywords limit (with overrides)' }),
      }),
    }),
  ),
);

export const RankKeywordAnswerSchema = successEnvelope('RankKeywordAnswer', TrackedKeywordSchema);

export const RankKeywordDeletedAnswerSchema = successEnvelope(
  'RankKeywordDeletedAnswer',
  named('RankKeywordDeleted', z.object({ keyword_id: z.int(), deleted: z.literal(true) })),
);

export type RankProject = z.infer<typeof RankProjectSchema>;
