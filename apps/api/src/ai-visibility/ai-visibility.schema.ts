import { z } from 'zod';
import { named, plainDateSchema, recordTimestampSchema, successEnvelope } from '@app/gateway';
import { MAX_COMPETITORS } from './ai-visibility.repository';

const score = z.number().nullable();

/** One data.projects[] entry of GET /api/v1/ai-visibility/projects (spec "AI-visibility project"). */
export const AiProjectSchema = named(
  'AiVisibilityProject',
  z.object({
    id: z.int(),
    domain: z.string(),
    brand_name: z.string(),
    target_country: z.string(),
    target_language: z.string(),
    ai_engine: z.string().meta({ example: 'chatgpt' }),
    tracking_frequency: z.string().meta({ example: 'weekly' }),
    status: z.string().meta({ example: 'active' }),
    visibility_score: score.meta({ description: 'null before the first scan' }),
    previous_visibility_score: score,
    score_change: score.meta({ description: 'null until the project has been scanned twice' }),
    created_at: recordTimestampSchema,
    updated_at: recordTimestampSchema,
  }),
);

export const AiProjectsAnswerSchema = successEnvelope(
  'AiVisibilityProjectsAnswer',
  named('AiVisibilityProjects', z.object({ projects: z.array(AiProjectSchema), count: z.int() })),
);

/** data of GET /api/v1/ai-visibility/share-of-voice (spec "Share of voice"). */
const ShareOfVoiceSchema = named(
  'ShareOfVoice',
  z.object({
    project: z.object({
      id: z.int(),
      domain: z.string(),
      brand_name: z.string(),
      target_country: z.string(),
      ai_engine: z.string(),
      visibility_score: score,
      previous_visibility_score: score,
    }),
    latest_snapshot: z
      .object({
        geo_score: z.number(),
        mention_rate: z.number().meta({
          description: 'Share of tested prompts that mentioned the brand at all (coverage)',
        }),
        avg_position: score,
        sentiment_avg: score,
        citation_rate: z.number(),
        competition_score: z.number(),
        prompts_evaluated: z.int(),
        snapshot_date: plainDateSchema,
      })
      .nullable()
      .meta({ description: "null before the project's first scan completes" }),
    share_of_voice: z.object({
      brand_mentions: z.int(),
      competitor_mentions: z.int(),
      total_mentions: z.int(),
      brand_share_pct: score.meta({
        description:
          "The brand's share of all mentions of it and its tracked competitors; null when there are none",
      }),
    }),
    competitors: z
      .array(
        z.object({
          competitor_name: z.string(),
          competitor_domain: z.string(),
          mention_count: z.int(),
          visibility_score: score,
          avg_position: score,
          updated_at: recordTimestampSchema,
        }),
      )
      .max(MAX_COMPETITORS)
      .meta({ description: `At most ${MAX_COMPETITORS}, by mention count` }),
  }),
);

export const ShareOfVoiceAnswerSchema = successEnvelope('ShareOfVoiceAnswer', ShareOfVoiceSchema);

/** One data.projects[] entry of GET /api/v1/ai-visibility/projects. */
export type AiVisibilityProject = z.infer<typeof AiProjectSchema>;
/** data of GET /api/v1/ai-visibility/share-of-voice. */
export type ShareOfVoice = z.infer<typeof ShareOfVoiceSchema>;
