import { Injectable } from '@nestjs/common';
import { ApiError, Clock, RawJson, plainDate, recordTimestamp } from '@app/core';
import { AccountsService } from '@app/accounts';
import type { Upserted } from '@app/database';
import {
  RankKeywordsBatchDto,
  NewRankProjectDto,
  RankKeywordItemDto,
  RankProjectChangesDto,
} from './rank-management.dto';
import { KeywordItem, ProjectViewRow, RankRepository, keywordKey } from './rank.repository';
import type { RankProject } from './rank-management.schema';

/** The market and device of a keyword nobody named (docs/rank-management.md). */
export const KEYWORD_DEFAULTS = { country: 'US', language: 'en', device: 'desktop' } as const;

/**
 * Rank tracking management (docs/rank-management.md): the one place the account's own
 * projects and keywords are written, for /api/v1/rank (API key) and /account/v1/rank
 * (session) alike. Another account's project or keyword is 404 NOT_FOUND like a missing
 * one. Writes go through RankRepository, whose statements keep the rank version (and so the
 * kept GET /rank/keywords pages of every instance) consistent.
 */
@Injectable()
export class RankManagementService {
  constructor(
    private readonly repo: RankRepository,
    private readonly accounts: AccountsService,
    private readonly clock: Clock,
  ) {}

  async listProjects(accountId: number): Promise<{ projects: RankProject[]; count: number }> {
    const projects = (await this.repo.listProjects(accountId)).map(projectView);
    return { projects, count: projects.length };
  }

  /** The account's project of the domain: created (201) or the one it already has (200). */
  async createProject(accountId: number, body: NewRankProjectDto): Promise<Upserted<RankProject>> {
    const { row, created } = await this.repo.createProject(
      accountId,
      {
        domain: body.domain,
        name: body.name ?? body.domain,
        match: body.match ?? 'domain',
        tracking: body.tracking ?? true,
      },
      this.clock.now(),
    );
    return { row: projectView(row), created };
  }

  async updateProject(
    accountId: number,
    projectId: number,
    body: RankProjectChangesDto,
  ): Promise<RankProject> {
    const row = await this.repo.updateProject(accountId, projectId, body, this.clock.now());
    if (!row) throw ApiError.notFound('Project');
    return projectView(row);
  }

  async deleteProject(accountId: number, projectId: number) {
    const gone = await this.repo.deleteProject(accountId, projectId);
    if (!gone) throw ApiError.notFound('Project');
    return {
      project_id: projectId,
      deleted: true as const,
      keywords_deleted: gone.keywordsDeleted,
    };
  }

  /**
   * Adds a batch of keywords to the project, all or nothing: each item's market and device
   * (the item's, else the body's, else US/en/desktop), duplicates within the batch counted
   * once, items the project already tracks answered under `already_tracked`. A batch that
   * would take the account past its `tracked_keywords` limit changes nothing: 402.
   */
  async addKeywords(accountId: number, projectId: number, body: RankKeywordsBatchDto) {
    const items = batchItems(body);
    const limit = await this.trackedKeywordsLimit(accountId);
    const result = await this.repo.addKeywords(
      accountId,
      projectId,
      items,
      limit,
      this.clock.now(),
    );
    if (result.kind === 'missing') throw ApiError.notFound('Project');
    if (result.kind === 'over') {
      const { used, requested } = result;
      throw new ApiError(
        'PAYMENT_REQUIRED',
        `This batch adds ${requested} new keyword${requested === 1 ? '' : 's'}, but the account ` +
          `tracks ${used} of its ${limit} tracked keywords. Nothing was added: upgrade the plan, ` +
          'ask for a higher limit, or remove keywords.',
        { meta: { limit, used, requested } },
      );
    }
    const entries = await this.repo.keywordEntries(
      accountId,
      [...result.added, ...result.alreadyTracked],
      plainDate(this.clock.now()),
    );
    const view = (ids: number[]) =>
      ids.flatMap((id) => {
        const json = entries.get(id);
        return json === undefined ? [] : [new RawJson(json)];
      });
    return {
      added: view(result.added),
      already_tracked: view(result.alreadyTracked),
      tracked_keywords: { used: result.used, limit },
    };
  }

  async setKeywordStatus(accountId: number, keywordId: number, status: 'active' | 'paused') {
    if (!(await this.repo.setKeywordStatus(accountId, keywordId, status, this.clock.now())))
      throw ApiError.notFound('Keyword');
    return this.keyword(accountId, keywordId);
  }

  async deleteKeyword(accountId: number, keywordId: number) {
    if (!(await this.repo.deleteKeyword(accountId, keywordId))) throw ApiError.notFound('Keyword');
    return { keyword_id: keywordId, deleted: true as const };
  }

  /** The keyword's GET /rank/keywords entry. */
  private async keyword(accountId: number, keywordId: number): Promise<RawJson> {
    const json = (
      await this.repo.keywordEntries(accountId, [keywordId], plainDate(this.clock.now()))
    ).get(keywordId);
    // Deleted between the write and this read.
    if (json === undefined) throw ApiError.notFound('Keyword');
    return new RawJson(json);
  }

  /** The account's tracked_keywords limit in force (plan and overrides, read now). */
  private async trackedKeywordsLimit(accountId: number): Promise<number> {
    const account = await this.accounts.find(accountId);
    if (!account) throw ApiError.notFound('Account');
    return this.accounts.limitsOf(account).tracked_keywords;
  }
}

/** The batch's items with their market and device, the first of each identity only. */
export function batchItems(body: RankKeywordsBatchDto): KeywordItem[] {
  const seen = new Map<string, KeywordItem>();
  for (const item of body.keywords as RankKeywordItemDto[]) {
    const k: KeywordItem = {
      keyword: item.keyword,
      country: item.country ?? body.country ?? KEYWORD_DEFAULTS.country,
      language: item.language ?? body.language ?? KEYWORD_DEFAULTS.language,
      device: item.device ?? body.device ?? KEYWORD_DEFAULTS.device,
    };
    if (!seen.has(keywordKey(k))) seen.set(keywordKey(k), k);
  }
  return [...seen.values()];
}

function projectView(p: ProjectViewRow): RankProject {
  return {
    project_id: p.project_id,
    domain: p.domain,
    name: p.name,
    match: p.match as RankProject['match'],
    tracking: p.tracking,
    keywords_count: p.keywords_count,
    created_at: recordTimestamp(p.created_at),
    updated_at: recordTimestamp(p.updated_at),
  };
}
