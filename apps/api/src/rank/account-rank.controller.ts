import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { WithMeta } from '@app/core';
import { SessionContext } from '@app/accounts';
import { ParseIdPipe } from '@app/gateway';
import { AccountAreaController } from '../session/account-area.decorator';
import { CurrentSession } from '../session/session.decorator';
import {
  RankKeywordsBatchDto,
  NewRankProjectDto,
  RankKeywordStatusDto,
  RankProjectChangesDto,
} from './rank-management.dto';
import { RankManagementService } from './rank-management.service';
import { createdOrFound } from './rank-management.http';
import { RankKeywordsQueryDto } from './rank.dto';
import { RankKeywordsReader } from './rank-keywords-reader';

/**
 * Rank tracking management in the account area (session cookie, same-origin and CSRF rules
 * of every /account/v1 route; not metered): the same paths as under /api/v1, the same
 * answers and errors, through the same RankManagementService (docs/rank-management.md).
 */
@AccountAreaController()
export class AccountRankController {
  constructor(
    private readonly rank: RankManagementService,
    private readonly keywords: RankKeywordsReader,
  ) {}

  @Get('rank/projects')
  @ApiOperation({ summary: 'The account’s rank-tracking projects' })
  listProjects(@CurrentSession() session: SessionContext) {
    return this.rank.listProjects(session.accountId);
  }

  /**
   * The tracked keywords with position, previous position and movement (the console's list):
   * the answer of GET /api/v1/rank/keywords, with meta.next naming this route.
   */
  @Get('rank/keywords')
  @ApiOperation({ summary: 'Tracked keywords with their latest position (paged like /api/v1)' })
  listKeywords(
    @CurrentSession() session: SessionContext,
    @Query() q: RankKeywordsQueryDto,
  ): Promise<WithMeta<unknown>> {
    return this.keywords.read(session.accountId, q, '/account/v1/rank/keywords');
  }

  @Post('rank/projects')
  @ApiOperation({ summary: 'Create a project (200 with the same record when already tracked)' })
  async createProject(
    @CurrentSession() session: SessionContext,
    @Body() body: NewRankProjectDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    return createdOrFound(res, await this.rank.createProject(session.accountId, body));
  }

  @Patch('rank/projects/:project_id')
  @ApiOperation({ summary: 'Rename a project, change its match or tracking' })
  updateProject(
    @CurrentSession() session: SessionContext,
    @Param('project_id', ParseIdPipe) projectId: number,
    @Body() body: RankProjectChangesDto,
  ) {
    return this.rank.updateProject(session.accountId, projectId, body);
  }

  @Delete('rank/projects/:project_id')
  @ApiOperation({ summary: 'Delete a project with its keywords and their history' })
  deleteProject(
    @CurrentSession() session: SessionContext,
    @Param('project_id', ParseIdPipe) projectId: number,
  ) {
    return this.rank.deleteProject(session.accountId, projectId);
  }

  @Post('rank/projects/:project_id/keywords')
  @HttpCode(200)
  @ApiOperation({ summary: 'Track a batch of keywords (402 past the tracked_keywords limit)' })
  addKeywords(
    @CurrentSession() session: SessionContext,
    @Param('project_id', ParseIdPipe) projectId: number,
    @Body() body: RankKeywordsBatchDto,
  ) {
    return this.rank.addKeywords(session.accountId, projectId, body);
  }

  @Patch('rank/keywords/:keyword_id')
  @ApiOperation({ summary: 'Pause a keyword or make it active again' })
  updateKeyword(
    @CurrentSession() session: SessionContext,
    @Param('keyword_id', ParseIdPipe) keywordId: number,
    @Body() body: RankKeywordStatusDto,
  ) {
    return this.rank.setKeywordStatus(session.accountId, keywordId, body.status);
  }

  @Delete('rank/keywords/:keyword_id')
  @ApiOperation({ summary: 'Stop tracking a keyword and delete its history' })
  deleteKeyword(
    @CurrentSession() session: SessionContext,
    @Param('keyword_id', ParseIdPipe) keywordId: number,
  ) {
    return this.rank.deleteKeyword(session.accountId, keywordId);
  }
}
