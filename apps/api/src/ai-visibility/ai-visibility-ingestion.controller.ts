import { Body, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '@app/core';
import { ParseIdPipe } from '@app/gateway';
import { AdminController } from '../admin-routes/admin-route.decorator';
import { upsertAnswer } from '../admin-routes/admin-http-status';
import { CreateAiProjectDto, ScanDto } from './ai-visibility-ingestion.dto';
import { AiVisibilityRepository } from './ai-visibility.repository';
import { AiVisibilityService } from './ai-visibility.service';
import { projectAdminView } from './ai-visibility.mapper';

/** AI-visibility ingestion (docs/your-data.md, "Ingestion (admin)"). */
@AdminController()
export class AiVisibilityIngestionController {
  constructor(
    private readonly repo: AiVisibilityRepository,
    private readonly service: AiVisibilityService,
    private readonly clock: Clock,
  ) {}

  @Post('accounts/:id/ai-visibility-projects')
  @ApiOperation({ summary: 'Create (or update, same domain and engine) an AI-visibility project' })
  async project(
    @Param('id', ParseIdPipe) accountId: number,
    @Body() body: CreateAiProjectDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    return upsertAnswer(
      res,
      await this.repo.upsertProject(accountId, body, this.clock.now()),
      'Account',
      projectAdminView,
    );
  }

  @Post('ai-visibility-projects/:id/scans')
  @HttpCode(200)
  @ApiOperation({ summary: 'Store a scan snapshot (a re-posted snapshot_date replaces it)' })
  async scan(@Param('id', ParseIdPipe) projectId: number, @Body() body: ScanDto) {
    return { stored: 1, ...(await this.service.storeScan(projectId, body, this.clock.now())) };
  }
}
