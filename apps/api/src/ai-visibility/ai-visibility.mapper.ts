import { recordTimestamp } from '@app/core';
import { AiProjectRow, CompetitorRow, SnapshotRow } from './ai-visibility.repository';

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** visibility − previous; null until the project has two scans. */
export function scoreChange(current: number | null, previous: number | null): number | null {
  return current == null || previous == null ? null : round2(current - previous);
}

/** The spec shape of an AI-visibility project (GET /ai-visibility/projects). */
export function projectView(p: AiProjectRow) {
  return {
    id: p.id,
    domain: p.domain,
    brand_name: p.brand_name,
    target_country: p.target_country,
    target_language: p.target_language,
    ai_engine: p.ai_engine,
    tracking_frequency: p.tracking_frequency,
    status: p.status,
    visibility_score: p.visibility_score,
    previous_visibility_score: p.previous_visibility_score,
    score_change: scoreChange(p.visibility_score, p.previous_visibility_score),
    created_at: recordTimestamp(p.created_at),
    updated_at: recordTimestamp(p.updated_at),
  };
}

/**
 * brand_share_pct = brand mentions / (brand + all tracked competitors' mentions) × 100
 * (competitive position); null when there are no mentions on either side. mention_rate,
 * by contrast, is the share of prompts that mentioned the brand at all (coverage).
 */
export function shareOfVoice(brandMentions: number, competitorMentions: number) {
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
  competitors: CompetitorRow[],
) {
  return {
    project: {
      id: p.id,
      domain: p.domain,
      brand_name: p.brand_name,
      target_country: p.target_country,
      ai_engine: p.ai_engine,
      visibility_score: p.visibility_score,
      previous_visibility_score: p.previous_visibility_score,
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
      competitor_name: c.competitor_name,
      competitor_domain: c.competitor_domain,
      mention_count: c.mention_count,
      visibility_score: c.visibility_score,
      avg_position: c.avg_position,
      updated_at: recordTimestamp(c.updated_at),
    })),
  };
}
