import { z } from 'zod';
import { named, plainDateSchema, successEnvelope } from '@app/gateway';
import { SERP_FEATURES } from '@app/database';

const position = z.int().nullable();

/** One data.keywords[] entry of GET /api/v1/rank/keywords (spec "Tracked keyword"). */
export const TrackedKeywordSchema = named(
  'TrackedKeyword',
  z.object({
    keyword_id: z.int(),
    keyword: z.string(),
    difficulty: z.int().nullable(),
    search_volume: z.int().nullable(),
    cpc: z.number().nullable(),
    country: z.string().meta({ example: 'us' }),
    language: z.string().meta({ example: 'en' }),
    device: z.string().meta({ example: 'desktop' }),
    status: z.string().meta({ example: 'active' }),
    project_id: z.int(),
    project_domain: z.string(),
    project_name: z.string(),
    last_checked: plainDateSchema.nullable().meta({ description: 'null when never checked' }),
    current_position: position.meta({ description: 'null when never checked or not ranked' }),
    previous_position: position,
    position_change: position.meta({
      description: 'previous − current: positive when the keyword moved up',
    }),
    landing_page: z.string().nullable(),
    gsc_clicks: z.int().nullable(),
    gsc_impressions: z.int().nullable(),
    gsc_ctr: z.number().nullable().meta({ description: 'Percent' }),
    local_pack: z.boolean().nullable(),
    featured_snippet: z.boolean().nullable(),
    ai_overview: z.boolean().nullable(),
  }),
);

export const RankKeywordsAnswerSchema = successEnvelope(
  'RankKeywordsAnswer',
  named('RankKeywords', z.object({ keywords: z.array(TrackedKeywordSchema), count: z.int() })),
  {
    project_id: z
      .int()
      .nullable()
      .meta({ description: 'The project asked for; null when omitted' }),
    limit: z.int(),
    // Paging: an extension of the API specification.
    offset: z.int().meta({
      description: 'Keywords skipped (the offset asked for, 0 when omitted)',
      'x-spec-extension': true,
    }),
    total: z.int().meta({
      description: 'Keywords matching (the account’s, or the project’s), across all pages',
      'x-spec-extension': true,
    }),
    next: z.string().nullable().meta({
      description:
        'Path and query of the next page (same project_id and limit); null on the last page',
      example: '/api/v1/rank/keywords?limit=100&offset=100',
      'x-spec-extension': true,
    }),
  },
);

const serpFeatures = Object.fromEntries(SERP_FEATURES.map((f) => [f, z.boolean()])) as Record<
  (typeof SERP_FEATURES)[number],
  z.ZodBoolean
>;

/** data of GET /api/v1/rank/history (spec "Position history"). */
const RankHistorySchema = named(
  'RankHistory',
  z.object({
    keyword: z.object({
      id: z.int(),
      keyword: z.string(),
      project_id: z.int(),
      domain: z.string(),
      project: z.string().meta({ description: 'Project name' }),
    }),
    history: z
      .array(
        z.object({
          check_date: plainDateSchema,
          position: position.meta({ description: 'null when not ranked that day' }),
          previous_position: position,
          change: position.meta({ description: 'previous − position: positive when it moved up' }),
          landing_page: z.string().nullable(),
          gsc_clicks: z.int().nullable(),
          gsc_impressions: z.int().nullable(),
          gsc_ctr: z.number().nullable(),
          gsc_average_position: z.number().nullable(),
          ...serpFeatures,
        }),
      )
      .meta({ description: 'Newest first' }),
    trend: z.object({
      first: position.meta({ description: 'Position at the oldest check in the window' }),
      latest: position.meta({ description: 'Position at the most recent check' }),
      best: position.meta({ description: 'Lowest number reached; null when never ranked' }),
      worst: position.meta({ description: 'Highest number reached; null when never ranked' }),
    }),
  }),
);

export const RankHistoryAnswerSchema = successEnvelope('RankHistoryAnswer', RankHistorySchema, {
  days_requested: z.int(),
  points: z.int().meta({ description: 'Checks in the window (history entries)' }),
});

/** One data.keywords[] entry of GET /api/v1/rank/keywords, as the mapper builds it. */
export type TrackedKeyword = z.infer<typeof TrackedKeywordSchema>;
/** data of GET /api/v1/rank/history. */
export type RankHistory = z.infer<typeof RankHistorySchema>;
