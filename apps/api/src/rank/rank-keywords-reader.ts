import { Injectable } from '@nestjs/common';
import { ApiError, Clock, RawJson, WithMeta, plainDate, withMeta } from '@app/core';
import { RankKeywordsQueryDto } from './rank.dto';
import { RankRepository } from './rank.repository';
import { RankKeywordPages } from './rank-keyword-pages';

/**
 * A page of an account's tracked keywords with their latest position: GET /api/v1/rank/keywords
 * and its account-area twin GET /account/v1/rank/keywords (the console's rank section), one
 * answer for both; `path` is the route meta.next names.
 */
@Injectable()
export class RankKeywordsReader {
  constructor(
    private readonly repo: RankRepository,
    private readonly pages: RankKeywordPages,
    private readonly clock: Clock,
  ) {}

  async read(accountId: number, q: RankKeywordsQueryDto, path: string): Promise<WithMeta<unknown>> {
    const projectId = q.project_id ?? null;
    const limit = q.limit ?? 100;
    const offset = q.offset ?? 0;
    if (projectId !== null && !(await this.repo.projectOwned(accountId, projectId))) {
      throw ApiError.notFound('Project');
    }
    const today = plainDate(this.clock.now());
    // The entries arrive as JSON rendered in PostgreSQL, or as the bytes of a kept page
    // (docs/your-data.md, "Rank tracking").
    const page = await this.pages.page(accountId, projectId, limit, offset, today);
    // offset, total and next: paging, an extension of the spec (docs/your-data.md).
    return withMeta(
      { keywords: new RawJson(page.json), count: page.count },
      {
        project_id: projectId,
        limit,
        offset,
        total: page.total,
        next: offset + limit < page.total ? nextPage(path, projectId, limit, offset + limit) : null,
      },
    );
  }
}

/** meta.next: the path and query of the page at `offset`. */
function nextPage(path: string, projectId: number | null, limit: number, offset: number): string {
  const project = projectId === null ? '' : `&project_id=${projectId}`;
  return `${path}?limit=${limit}&offset=${offset}${project}`;
}
