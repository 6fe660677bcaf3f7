import { recordTimestamp } from '@app/core';

/** Answers of the ingestion endpoints (snake_case, record timestamps formatted). */
export function rankProjectView(r: {
  id: number;
  account_id: number;
  domain: string;
  name: string;
}) {
  return { id: r.id, account_id: r.account_id, domain: r.domain, name: r.name };
}

export function withoutCreated<T extends { created?: boolean }>(r: T): Omit<T, 'created'> {
  const { created: _created, ...rest } = r;
  return rest;
}

export function gscPropertyView(r: Record<string, unknown>) {
  const { created: _c, last_synced_at, ...rest } = r;
  return { ...rest, last_synced_at: recordTimestamp(last_synced_at as Date | null) };
}
