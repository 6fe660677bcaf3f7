import { Body, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '@app/core';
import { ParseIdPipe } from '@app/gateway';
import { AdminController } from '../admin-routes/admin-route.decorator';
import { found, upsertAnswer } from '../admin-routes/admin-http-status';
import { CreateRankProjectDto, CreateTrackedKeywordDto, RankChecksDto } from './rank-ingestion.dto';
import { RankRepository } from './rank.repository';
import { rankProjectAdminView, trackedKeywordAdminView } from './rank.mapper';

/** Rank-tracking ingestion (docs/your-data.md, "Ingestion (admin)"). 201 when created, 200 when updated. */
@AdminController()
export class RankIngestionController {
  constructor(
    private readonly repo: RankRepository,
    private readonly clock: Clock,
  ) {}

  @Post('accounts/:id/rank-projects')
  @ApiOperation({ summary: 'Create (or update, same domain) a rank-tracking project' })
  async project(
    @Param('id', ParseIdPipe) accountId: number,
    @Body() body: CreateRankProjectDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    return upsertAnswer(
      res,
      await this.repo.upsertProject(accountId, body, this.clock.now()),
      'Account',
      rankProjectAdminView,
    );
  }

  @Post('rank-projects/:id/keywords')
  @ApiOperation({ summary: 'Track a keyword (idempotent on keyword, country, language, device)' })
  async keyword(
    @Param('id', ParseIdPipe) projectId: number,
    @Body() body: CreateTrackedKeywordDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    return upsertAnswer(
      res,
      await this.repo.upsertKeyword(projectId, body, this.clock.now()),
      'Rank project',
      trackedKeywordAdminView,
    );
  }

  @Post('tracked-keywords/:id/checks')
  @HttpCode(200)
  @ApiOperation({ summary: 'Store position checks (one per date; a re-posted date replaces)' })
  async checks(@Param('id', ParseIdPipe) keywordId: number, @Body() body: RankChecksDto) {
    const stored = found(
      await this.repo.storeChecks(keywordId, body.checks, this.clock.now()),
      'Tracked keyword',
    );
    return { stored };
  }
}
