import { Body, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiError, Clock } from '@app/core';
import { ParseIdPipe } from '@app/gateway';
import { AdminController } from '../admin/admin-route.decorator';
import {
  CreateRankProjectDto,
  CreateTrackedKeywordDto,
  RankChecksDto,
} from './dto/rank-ingestion.dto';
import { RankIngestionRepository } from './rank-ingestion.repository';
import { rankProjectView, withoutCreated } from './ingestion-views';

/** Rank-tracking ingestion (docs: admin-api.md "Your-data ingestion"). 201 when created, 200 when updated. */
@AdminController()
export class RankIngestionController {
  constructor(
    private readonly repo: RankIngestionRepository,
    private readonly clock: Clock,
  ) {}

  @Post('accounts/:id/rank-projects')
  @ApiOperation({ summary: 'Create (or update, same domain) a rank-tracking project' })
  async project(
    @Param('id', ParseIdPipe) accountId: number,
    @Body() body: CreateRankProjectDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const row = await this.repo.upsertProject(accountId, body, this.clock.now());
    if (!row) throw ApiError.notFound('Account');
    res.status(row.created ? 201 : 200);
    return rankProjectView(row);
  }

  @Post('rank-projects/:id/keywords')
  @ApiOperation({ summary: 'Track a keyword (idempotent on keyword, country, language, device)' })
  async keyword(
    @Param('id', ParseIdPipe) projectId: number,
    @Body() body: CreateTrackedKeywordDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const row = await this.repo.upsertKeyword(projectId, body, this.clock.now());
    if (!row) throw ApiError.notFound('Rank project');
    res.status(row.created ? 201 : 200);
    return withoutCreated(row);
  }

  @Post('tracked-keywords/:id/checks')
  @HttpCode(200)
  @ApiOperation({ summary: 'Store position checks (one per date; a re-posted date replaces)' })
  async checks(@Param('id', ParseIdPipe) keywordId: number, @Body() body: RankChecksDto) {
    const stored = await this.repo.storeChecks(keywordId, body.checks, this.clock.now());
    if (stored === null) throw ApiError.notFound('Tracked keyword');
    return { stored };
  }
}
