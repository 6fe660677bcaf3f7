import { Injectable } from '@nestjs/common';
import { ApiError, Clock, recordTimestamp } from '@app/core';
import { AccountsService } from '@app/accounts';
import type { AiCompetitor, AiVisibilityProjectEntity } from '@app/database';
import type { Limits } from '@app/plans';
import {
  AiCompetitorDto,
  AiProjectChangesDto,
  NewAiProjectDto,
} from './ai-visibility-management.dto';
import { AiProjectFields, AiProjectWrite, AiProjectsRepository } from './ai-projects.repository';
import type { AiProjectCreated, AiProjectSettings } from './ai-visibility-management.schema';
import { projectView } from './ai-visibility.mapper';

/**
 * AI-visibility management (docs/ai-visibility-management.md): the one place the customer's
 * projects are created, changed and deleted, for /api/v1/ai-visibility (API key),
 * /account/v1/ai-visibility (session) and the MCP tools alike. Another account's project is
 * 404 NOT_FOUND like a missing one; a write past the plan's `ai_visibility_projects` or
 * `ai_visibility_prompts_per_project` changes nothing and answers 402.
 */
@Injectable()
export class AiVisibilityManagementService {
  constructor(
    private readonly repo: AiProjectsRepository,
    private readonly accounts: AccountsService,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates a project, due for its first scan now. Past the prompts limit nothing is written
   * (checked first unless the plan has no projects at all, whose 402 says more).
   */
  async createProject(accountId: number, body: NewAiProjectDto): Promise<AiProjectCreated> {
    const limits = await this.limits(accountId);
    if (limits.ai_visibility_projects > 0)
      promptsWithin(limits.ai_visibility_prompts_per_project, 0, body.prompts.length);
    const fields: AiProjectFields = {
      domain: body.domain,
      brandName: body.brand_name,
      brandAliases: body.brand_aliases ?? [],
      targetCountry: body.target_country,
      targetLanguage: body.target_language,
      aiEngine: body.ai_engine,
      trackingFrequency: body.tracking_frequency,
      prompts: body.prompts,
      competitors: competitors(body.competitors ?? [], body.domain),
    };
    const write = await this.repo.create(
      accountId,
      fields,
      limits.ai_visibility_projects,
      this.clock.now(),
    );
    const project = written(write, limits.ai_visibility_projects);
    return { ...projectView(project), ...customerMembers(project) };
  }

  async settings(accountId: number, projectId: number): Promise<AiProjectSettings> {
    const project = await this.repo.project(accountId, projectId);
    if (!project) throw ApiError.notFound('Project');
    return settingsView(project);
  }

  /**
   * Changes the members the body carries. What is asked or where (prompts, engine, market)
   * changing to another value makes the project due now, so the new settings are scanned
   * within minutes (the same values sent again leave the next scan where it was).
   */
  async updateProject(
    accountId: number,
    projectId: number,
    body: AiProjectChangesDto,
  ): Promise<AiProjectSettings> {
    const limits = await this.limits(accountId);
    const write = await this.repo.update(
      accountId,
      projectId,
      (current) => {
        if (body.prompts != null)
          promptsWithin(
            limits.ai_visibility_prompts_per_project,
            current.prompts.length,
            body.prompts.length,
          );
        const domain = body.domain ?? current.domain;
        const fields: Partial<AiProjectFields> = {
          domain: body.domain ?? undefined,
          brandName: body.brand_name ?? undefined,
          brandAliases: body.brand_aliases ?? undefined,
          targetCountry: body.target_country ?? undefined,
          targetLanguage: body.target_language ?? undefined,
          aiEngine: body.ai_engine ?? undefined,
          trackingFrequency: body.tracking_frequency ?? undefined,
          prompts: body.prompts ?? undefined,
          competitors:
            body.competitors != null
              ? competitors(body.competitors, domain)
              : body.domain != null
                ? competitors(current.competitors, domain, 'domain')
                : undefined,
        };
        const changed = (next: unknown, stored: unknown) =>
          next !== undefined && JSON.stringify(next) !== JSON.stringify(stored);
        const rescan =
          (fields.prompts ?? current.prompts).length > 0 &&
          (changed(fields.prompts, current.prompts) ||
            changed(fields.aiEngine, current.aiEngine) ||
            changed(fields.targetCountry, current.targetCountry) ||
            changed(fields.targetLanguage, current.targetLanguage));
        return { fields: withoutUndefined(fields), rescan };
      },
      this.clock.now(),
    );
    return settingsView(written(write, limits.ai_visibility_projects));
  }

  async deleteProject(accountId: number, projectId: number) {
    if (!(await this.repo.delete(accountId, projectId))) throw ApiError.notFound('Project');
    return { project_id: projectId, deleted: true as const };
  }

  /** The account's limits in force (plan and overrides, read now). */
  private async limits(accountId: number): Promise<Limits> {
    const account = await this.accounts.find(accountId);
    if (!account) throw ApiError.notFound('Account');
    return this.accounts.limitsOf(account);
  }
}

/** The written project, or the error of a write that changed nothing. */
function written(write: AiProjectWrite, projectsLimit: number): AiVisibilityProjectEntity {
  switch (write.kind) {
    case 'written':
      return write.project;
    case 'missing':
      throw ApiError.notFound('Project');
    case 'taken':
      throw ApiError.validation(
        'domain',
        'domain: the account already has an AI-visibility project of this domain on this ai_engine',
      );
    case 'over':
      throw new ApiError(
        'PAYMENT_REQUIRED',
        `The account has ${write.used} of its ${projectsLimit} AI-visibility projects. Nothing was ` +
          'created: upgrade the plan, ask for a higher limit, or delete a project.',
        { meta: { limit: projectsLimit, used: write.used, requested: 1 } },
      );
  }
}

/** 402 when a project would hold more prompts than the plan's ai_visibility_prompts_per_project. */
function promptsWithin(limit: number, used: number, requested: number): void {
  if (requested <= limit) return;
  throw new ApiError(
    'PAYMENT_REQUIRED',
    `A project holds at most ${limit} prompts on this plan; this one would hold ${requested}. ` +
      'Nothing was changed: upgrade the plan, ask for a higher limit, or send fewer prompts.',
    { meta: { limit, used, requested } },
  );
}

/**
 * The competitors as stored, after the rules a single field cannot check: distinct domains,
 * none the project's own (422 naming the first at fault; `member` names the field of the
 * stored list when the project's domain changed under it).
 */
function competitors(
  list: Array<AiCompetitorDto | AiCompetitor>,
  projectDomain: string,
  member: 'competitors' | 'domain' = 'competitors',
): AiCompetitor[] {
  const seen = new Set<string>();
  list.forEach((c, i) => {
    if (c.domain === projectDomain)
      throw member === 'domain'
        ? ApiError.validation(
            'domain',
            `domain ${projectDomain} is one of the project's competitors`,
          )
        : ApiError.validation(
            `competitors.${i}.domain`,
            `competitors.${i}.domain must not be the project's own domain`,
          );
    if (seen.has(c.domain))
      throw ApiError.validation(
        `competitors.${i}.domain`,
        `competitors.${i}.domain repeats an earlier competitor's domain`,
      );
    seen.add(c.domain);
  });
  return list.map((c) => ({ name: c.name, domain: c.domain }));
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function customerMembers(p: AiVisibilityProjectEntity) {
  return {
    prompts: p.prompts,
    brand_aliases: p.brandAliases,
    competitors: p.competitors.map((c) => ({ name: c.name, domain: c.domain })),
  };
}

/** GET /ai-visibility/projects/{project_id}/settings. */
export function settingsView(p: AiVisibilityProjectEntity): AiProjectSettings {
  const { prompts, brand_aliases, competitors: tracked } = customerMembers(p);
  return {
    project_id: p.id,
    brand_aliases,
    prompts,
    competitors: tracked,
    ai_engine: p.aiEngine,
    tracking_frequency: p.trackingFrequency,
    next_scan_at: recordTimestamp(p.nextScanAt),
  };
}
