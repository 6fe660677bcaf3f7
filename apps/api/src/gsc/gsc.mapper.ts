import { recordTimestamp } from '@app/core';
import { GscGroupRow } from './gsc.repository';
import { GscPropertyRow } from '@app/database';
import type { GscProperty, GscQueries } from './gsc.schema';

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** The spec shape of a Search-console property (GET /gsc/properties). */
export function propertyView(p: GscPropertyRow): GscProperty {
  return {
    property_id: p.id,
    property_uri: p.propertyUri,
    display_name: p.displayName,
    status: p.status,
    last_synced_at: recordTimestamp(p.lastSyncedAt),
    last_sync_status: p.lastSyncStatus,
    google_email: p.googleEmail,
    is_sandbox: p.isSandbox,
  };
}

/** Answer of POST /admin/v1/accounts/:id/gsc-properties: the same fields, keyed `id`. */
export function propertyAdminView(p: GscPropertyRow) {
  const { property_id, ...fields } = propertyView(p);
  return { id: property_id, ...fields };
}

/**
 * Sums → the public metrics: ctr = clicks / impressions × 100, position = Σ(position ×
 * impressions) / Σ impressions, both rounded to 2 decimals and null without impressions.
 */
export function metricsView(sums: {
  clicks: string | number;
  impressions: string | number;
  position_weighted: number;
}): GscQueries['totals'] {
  const clicks = Number(sums.clicks);
  const impressions = Number(sums.impressions);
  return {
    clicks,
    impressions,
    ctr: impressions > 0 ? round2((clicks / impressions) * 100) : null,
    position: impressions > 0 ? round2(Number(sums.position_weighted) / impressions) : null,
  };
}

/** One row of GET /gsc/queries. */
export function groupView(g: GscGroupRow): GscQueries['rows'][number] {
  return { key: g.key, ...metricsView(g) };
}
