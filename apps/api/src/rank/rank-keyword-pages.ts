import { Injectable } from '@nestjs/common';
import { metrics } from '@app/core';
import { RankRepository, UNCHANGED } from './rank.repository';

/** A page of GET /rank/keywords as it is sent: the UTF-8 bytes of its `keywords` array. */
export interface KeywordPageBytes {
  json: Buffer;
  count: number;
  /** The keywords matching, all pages (meta.total). */
  total: number;
}

interface KeptPage extends KeywordPageBytes {
  /** The account's rank version the page was read at. */
  version: string;
}

/** What the pages kept by one API process may take in all (least recently used out first). */
const KEPT_BYTES_MAX = 32 * 1024 * 1024;
/** A page larger than this (limit 500 is ~250 KB) is not kept. */
const KEPT_PAGE_MAX = KEPT_BYTES_MAX / 16;

/**
 * GET /rank/keywords pages, kept by this API process as the bytes they were sent as and
 * served again while the account's rank version is unchanged (docs/your-data.md, "Pages
 * kept by the API"). One page per account, project_id, limit, offset and day, with its
 * total (which changes only with the version). Every request still asks PostgreSQL (the primary or the standby the
 * read goes to) for the version, so a change committed anywhere is seen by every process on
 * its next request; what a kept page saves is reading, decoding and re-encoding ~50 KB.
 */
@Injectable()
export class RankKeywordPages {
  /** In recency order: a Map iterates in insertion order, a use re-inserts. */
  private readonly kept = new Map<string, KeptPage>();
  private keptBytes = 0;

  constructor(private readonly repo: RankRepository) {}

  async page(
    accountId: number,
    projectId: number | null,
    limit: number,
    offset: number,
    today: string,
  ): Promise<KeywordPageBytes> {
    const key = `${accountId}:${projectId ?? ''}:${limit}:${offset}:${today}`;
    const kept = this.kept.get(key);
    const read = await this.repo.keywordPage(
      accountId,
      projectId,
      limit,
      offset,
      today,
      kept?.version ?? null,
    );
    if (read === UNCHANGED) {
      this.kept.delete(key);
      this.kept.set(key, kept!);
      metrics.rankPages.inc({ result: 'kept' });
      return kept!;
    }
    const page = {
      json: Buffer.from(`[${read.entries.join(',')}]`),
      count: read.entries.length,
      total: read.total,
    };
    if (kept) this.forget(key, kept);
    if (read.version !== null && page.json.length <= KEPT_PAGE_MAX) {
      this.keep(key, { ...page, version: read.version });
      metrics.rankPages.inc({ result: 'read' });
    } else {
      metrics.rankPages.inc({ result: 'not_kept' });
    }
    return page;
  }

  private keep(key: string, page: KeptPage): void {
    this.kept.set(key, page);
    this.keptBytes += page.json.length;
    for (const [oldest, old] of this.kept) {
      if (this.keptBytes <= KEPT_BYTES_MAX) break;
      this.forget(oldest, old);
    }
  }

  private forget(key: string, page: KeptPage): void {
    this.kept.delete(key);
    this.keptBytes -= page.json.length;
  }
}
