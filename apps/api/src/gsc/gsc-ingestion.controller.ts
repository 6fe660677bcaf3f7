import { Body, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '@app/core';
import { ParseIdPipe } from '@app/gateway';
import { AdminController } from '../admin-routes/admin-route.decorator';
import { found, upsertAnswer } from '../admin-routes/admin-http-status';
import { CreateGscPropertyDto, GscRowsDto } from './gsc-ingestion.dto';
import { GscIngestionRepository } from '@app/database';
import { propertyAdminView } from './gsc.mapper';

/** Search Console ingestion (docs/your-data.md, "Ingestion (admin)"). */
@AdminController()
export class GscIngestionController {
  constructor(
    private readonly repo: GscIngestionRepository,
    private readonly clock: Clock,
  ) {}

  @Post('accounts/:id/gsc-properties')
  @ApiOperation({ summary: 'Create (or update, same property_uri) a Search Console property' })
  async property(
    @Param('id', ParseIdPipe) accountId: number,
    @Body() body: CreateGscPropertyDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    return upsertAnswer(
      res,
      await this.repo.upsertProperty(accountId, body, this.clock.now()),
      'Account',
      propertyAdminView,
    );
  }

  @Post('gsc-properties/:id/rows')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Store daily Search Console facts (up to 10,000; upsert on the row key)',
  })
  async rows(@Param('id', ParseIdPipe) propertyId: number, @Body() body: GscRowsDto) {
    const stored = found(await this.repo.storeRows(propertyId, body.rows), 'GSC property');
    return { stored };
  }
}
