import { Body, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiError, Clock } from '@app/core';
import { ParseIdPipe } from '@app/gateway';
import { AdminController } from '../admin/admin-route.decorator';
import { CreateAiProjectDto, ScanDto } from './dto/ai-visibility-ingestion.dto';
import { AiVisibilityIngestionRepository } from './ai-visibility-ingestion.repository';
import { withoutCreated } from './ingestion-views';

/** AI-visibility ingestion (docs: admin-api.md "Your-data ingestion"). */
@AdminController()
export class AiVisibilityIngestionController {
  constructor(
    private readonly repo: AiVisibilityIngestionRepository,
    private readonly clock: Clock,
  ) {}

  @Post('accounts/:id/ai-visibility-projects')
  @ApiOperation({ summary: 'Create (or update, same domain and engine) an AI-visibility project' })
  async project(
    @Param('id', ParseIdPipe) accountId: number,
    @Body() body: CreateAiProjectDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const row = await this.repo.upsertProject(accountId, body, this.clock.now());
    if (!row) throw ApiError.notFound('Account');
    res.status(row.created ? 201 : 200);
    return withoutCreated(row);
  }

  @Post('ai-visibility-projects/:id/scans')
  @HttpCode(200)
  @ApiOperation({ summary: 'Store a scan snapshot (a re-posted snapshot_date replaces it)' })
  async scan(@Param('id', ParseIdPipe) projectId: number, @Body() body: ScanDto) {
    const domains = new Set<string>();
    body.competitors.forEach((c, i) => {
      if (domains.has(c.competitor_domain)) {
        throw ApiError.validation(
          `competitors.${i}.competitor_domain`,
          `competitor_domain ${c.competitor_domain} appears more than once in this scan`,
        );
      }
      domains.add(c.competitor_domain);
    });
    const result = await this.repo.storeScan(projectId, body, this.clock.now());
    if (!result) throw ApiError.notFound('AI-visibility project');
    return { stored: 1, ...result };
  }
}
