import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiExtraModels, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthContext } from '@app/accounts';
import { CurrentAuth, Endpoint, ParseIdPipe, YOUR_DATA_COST } from '@app/gateway';
import {
  RankKeywordsBatchDto,
  NewRankProjectDto,
  RankKeywordItemDto,
  RankKeywordStatusDto,
  RankProjectChangesDto,
} from './rank-management.dto';
import {
  RankKeywordAnswerSchema,
  RankKeywordDeletedAnswerSchema,
  RankKeywordsAddedAnswerSchema,
  RankProjectAnswerSchema,
  RankProjectDeletedAnswerSchema,
  RankProjectsAnswerSchema,
} from './rank-management.schema';
import { RankManagementService } from './rank-management.service';
import { createdOrFound } from './rank-management.http';

/** A path id: a positive integer (anything else is 404 NOT_FOUND, ParseIdPipe). */
const idParam = (name: string) =>
  ApiParam({ name, schema: { type: 'integer', minimum: 1, maximum: 2147483647 } });

/** What every management route is: your-data, an extension of the spec. */
const MANAGEMENT = { group: 'your-data', cost: YOUR_DATA_COST, extension: true } as const;

/**
 * Rank tracking management with the API key (docs/rank-management.md): projects and their
 * keywords. Your-data routes: counted, never refused at the monthly cap. The account area
 * has the same operations (AccountRankController); both call RankManagementService.
 */
@ApiTags('rank')
@ApiExtraModels(RankKeywordItemDto)
@Controller('api/v1/rank')
export class RankManagementController {
  constructor(private readonly rank: RankManagementService) {}

  @Get('projects')
  @Endpoint({
    ...MANAGEMENT,
    operationId: 'listRankProjects',
    summary: 'The account’s rank-tracking projects with their keyword counts (oldest first)',
    answer: RankProjectsAnswerSchema,
    errors: [],
    sample: {
      typescript: [
        'const { data } = await client.rankProjects();',
        'for (const p of data.projects) console.log(p.project_id, p.domain, p.keywords_count);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["count"]',
    },
    client: 'rankProjects',
    mcp: 'list_rank_projects',
  })
  listProjects(@CurrentAuth() auth: AuthContext) {
    return this.rank.listProjects(auth.accountId);
  }

  @Post('projects')
  @Endpoint({
    ...MANAGEMENT,
    operationId: 'createRankProject',
    summary: 'Create a rank-tracking project (200 with the same record when the domain is tracked)',
    description:
      'The domain is stored normalised (lower case, no scheme, path, port or leading www.). ' +
      '201 when created; 200 with the existing record, unchanged, when the account already ' +
      'tracks that domain. `match`: `domain` (default: the domain and its subdomains rank) or ' +
      '`exact_host`. `tracking` (default true): whether the service checks the keywords daily.',
    answer: RankProjectAnswerSchema,
    status: 201,
    answerDescription:
      'Created (the same answer with status 200 when the account already tracks the domain)',
    errors: ['validation'],
    sample: {
      body: { domain: 'example.com', name: 'Example' },
      typescript: [
        "const { data } = await client.createRankProject({ domain: 'example.com', name: 'Example' });",
        'console.log(data.project_id, data.domain);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["project_id"]',
    },
    client: 'createRankProject',
    mcp: 'create_rank_project',
  })
  async createProject(
    @CurrentAuth() auth: AuthContext,
    @Body() body: NewRankProjectDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    return createdOrFound(res, await this.rank.createProject(auth.accountId, body));
  }

  @Patch('projects/:project_id')
  @Endpoint({
    ...MANAGEMENT,
    operationId: 'updateRankProject',
    summary: 'Rename a project, change its match or switch its tracking on or off',
    answer: RankProjectAnswerSchema,
    errors: ['notFound', 'validation'],
    sample: {
      path: { project_id: '89' },
      body: { tracking: false },
      typescript: [
        'const { data } = await client.updateRankProject(89, { tracking: false });',
        'console.log(data.tracking);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["tracking"]',
    },
    client: 'updateRankProject',
    mcp: 'update_rank_project',
  })
  @idParam('project_id')
  updateProject(
    @CurrentAuth() auth: AuthContext,
    @Param('project_id', ParseIdPipe) projectId: number,
    @Body() body: RankProjectChangesDto,
  ) {
    return this.rank.updateProject(auth.accountId, projectId, body);
  }

  @Delete('projects/:project_id')
  @Endpoint({
    ...MANAGEMENT,
    operationId: 'deleteRankProject',
    summary: 'Delete a project with its keywords and their history',
    answer: RankProjectDeletedAnswerSchema,
    errors: ['notFound'],
    sample: {
      path: { project_id: '90' },
      typescript: [
        'const { data } = await client.deleteRankProject(90);',
        'console.log(data.keywords_deleted);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["keywords_deleted"]',
    },
    client: 'deleteRankProject',
    mcp: 'delete_rank_project',
  })
  @idParam('project_id')
  deleteProject(
    @CurrentAuth() auth: AuthContext,
    @Param('project_id', ParseIdPipe) projectId: number,
  ) {
    return this.rank.deleteProject(auth.accountId, projectId);
  }

  @Post('projects/:project_id/keywords')
  @HttpCode(200)
  @Endpoint({
    ...MANAGEMENT,
    operationId: 'addRankKeywords',
    summary: 'Track a batch of 1-1,000 keywords in a project (re-sending is safe)',
    description:
      'Items are strings or objects `{keyword, country?, language?, device?}`; an item’s ' +
      'members win over the body’s, whose defaults are US, en, desktop. The keyword is trimmed ' +
      'and its inner spaces collapsed (1-200 characters). An item the project already tracks ' +
      '(same keyword compared case-insensitively, country, language, device) comes back under ' +
      '`already_tracked`, unchanged and not counted again. New keywords are `pending` until ' +
      'their first check. A batch that would pass the plan’s `tracked_keywords` limit adds ' +
      'nothing: 402 with meta.limit, meta.used and meta.requested (the new items).',
    answer: RankKeywordsAddedAnswerSchema,
    errors: ['notFound', 'validation', 'trackedKeywordsLimit'],
    sample: {
      path: { project_id: '89' },
      body: { keywords: ['running shoes', { keyword: 'trail shoes', device: 'mobile' }] },
      typescript: [
        'const { data } = await client.addRankKeywords(89, {',
        "  keywords: ['running shoes', { keyword: 'trail shoes', device: 'mobile' }],",
        '});',
        'console.log(data.added.length, data.already_tracked.length, data.tracked_keywords);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["tracked_keywords"]',
    },
    client: 'addRankKeywords',
    mcp: 'add_rank_keywords',
  })
  @idParam('project_id')
  addKeywords(
    @CurrentAuth() auth: AuthContext,
    @Param('project_id', ParseIdPipe) projectId: number,
    @Body() body: RankKeywordsBatchDto,
  ) {
    return this.rank.addKeywords(auth.accountId, projectId, body);
  }

  @Patch('keywords/:keyword_id')
  @Endpoint({
    ...MANAGEMENT,
    operationId: 'updateRankKeyword',
    summary: 'Pause a keyword (not checked, history kept) or make it active again',
    description:
      'A keyword never checked that is made active again is `pending` until its first check.',
    answer: RankKeywordAnswerSchema,
    errors: ['notFound', 'validation'],
    sample: {
      path: { keyword_id: '123' },
      body: { status: 'paused' },
      typescript: [
        "const { data } = await client.updateRankKeyword(123, { status: 'paused' });",
        'console.log(data.status);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["status"]',
    },
    client: 'updateRankKeyword',
    mcp: 'update_rank_keyword',
  })
  @idParam('keyword_id')
  updateKeyword(
    @CurrentAuth() auth: AuthContext,
    @Param('keyword_id', ParseIdPipe) keywordId: number,
    @Body() body: RankKeywordStatusDto,
  ) {
    return this.rank.setKeywordStatus(auth.accountId, keywordId, body.status);
  }

  @Delete('keywords/:keyword_id')
  @Endpoint({
    ...MANAGEMENT,
    operationId: 'deleteRankKeyword',
    summary: 'Stop tracking a keyword and delete its history',
    answer: RankKeywordDeletedAnswerSchema,
    errors: ['notFound'],
    sample: {
      path: { keyword_id: '124' },
      typescript: [
        'const { data } = await client.deleteRankKeyword(124);',
        'console.log(data.deleted);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["deleted"]',
    },
    client: 'deleteRankKeyword',
    mcp: 'delete_rank_keyword',
  })
  @idParam('keyword_id')
  deleteKeyword(
    @CurrentAuth() auth: AuthContext,
    @Param('keyword_id', ParseIdPipe) keywordId: number,
  ) {
    return this.rank.deleteKeyword(auth.accountId, keywordId);
  }
}
