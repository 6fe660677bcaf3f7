import { recordTimestamp } from '@app/core';
import { AiVisibilityCompetitorEntity, AiVisibilityProjectEntity } from '@app/database';
import { AiProjectRow, SnapshotRow } from './ai-visibility.repository';
import type { AiVisibilityProject, ShareOfVoice } from './ai-visibility.schema';

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** visibility − previous; null until the project has two scans. */
export function scoreChange(current: number | null, previous: number | null): number | null {
  return current == null || previous == null ? null : round2(current - previous);
}

/** Answer of POST /admin/v1/accounts/:id/ai-visibility-projects: the stored fields. */
export function projectAdminView(p: AiProjectRow) {
  return {
    id: p.id,
    domain: p.domain,
    brand_name: p.brandName,
    target_country: p.targetCountry,
    target_language: p.targetLanguage,
    ai_engine: p.aiEngine,
    tracking_frequency: p.trackingFrequency,
    status: p.status,
    visibility_score: p.visibilityScore,
    previous_visibility_score: p.previousVisibilityScore,
  };
}

/** The spec shape of an AI-visibility project (GET /ai-visibility/projects). */
export function projectView(p: AiVisibilityProjectEntity): AiVisibilityProject {
  return {
    ...projectAdminView(p),
    score_change: scoreChange(p.visibilityScore, p.previousVisibilityScore),
    created_at: recordTimestamp(p.createdAt),
    updated_at: recordTimestamp(p.updatedAt),
  };
}

/**
 * brand_share_pct = brand mentions / (brand + all tracked competitors' mentions) × 100
 * (competitive position); null when there are no mentions on either side. mention_rate,
 * by contrast, is the share of prompts that mentioned the brand at all (coverage).
 */
export function shareOfVoice(
  brandMentions: number,
  competitorMentions: number,
): ShareOfVoice['share_of_voice'] {
  const total = brandMentions + competitorMentions;
  return {
    brand_mentions: brandMentions,
    competitor_mentions: competitorMentions,
    total_mentions: total,
    brand_share_pct: total > 0 ? round2((brandMentions / total) * 100) : null,
  };
}

/** data of GET /ai-visibility/share-of-voice. */
export function shareOfVoiceView(
  p: AiProjectRow,
  s: SnapshotRow | null,
  competitors: AiVisibilityCompetitorEntity[],
): ShareOfVoice {
  return {
    project: {
      id: p.id,
      domain: p.domain,
      brand_name: p.brandName,
      target_country: p.targetCountry,
      ai_engine: p.aiEngine,
      visibility_score: p.visibilityScore,
      previous_visibility_score: p.previousVisibilityScore,
    },
    latest_snapshot: s
      ? {
          geo_score: s.geo_score,
          mention_rate: s.mention_rate,
          avg_position: s.avg_position,
          sentiment_avg: s.sentiment_avg,
          citation_rate: s.citation_rate,
          competition_score: s.competition_score,
          prompts_evaluated: s.prompts_evaluated,
          snapshot_date: s.snapshot_date,
        }
      : null,
    share_of_voice: shareOfVoice(s ? s.brand_mentions : 0, s ? Number(s.competitor_mentions) : 0),
    competitors: competitors.map((c) => ({
      competitor_name: c.competitorName,
      competitor_domain: c.competitorDomain,
      mention_count: c.mentionCount,
      visibility_score: c.visibilityScore,
      avg_position: c.avgPosition,
      updated_at: recordTimestamp(c.updatedAt),
    })),
  };
}
