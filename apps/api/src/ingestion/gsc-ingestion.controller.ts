import { Body, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiError, Clock } from '@app/core';
import { ParseIdPipe } from '@app/gateway';
import { AdminController } from '../admin/admin-route.decorator';
import { CreateGscPropertyDto, GscRowsDto } from './dto/gsc-ingestion.dto';
import { GscIngestionRepository } from './gsc-ingestion.repository';
import { gscPropertyView } from './ingestion-views';

/** Search Console ingestion (docs: admin-api.md "Your-data ingestion"). */
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
    const row = await this.repo.upsertProperty(accountId, body, this.clock.now());
    if (!row) throw ApiError.notFound('Account');
    res.status(row.created ? 201 : 200);
    return gscPropertyView(row);
  }

  @Post('gsc-properties/:id/rows')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Store daily Search Console facts (up to 10,000; upsert on the row key)',
  })
  async rows(@Param('id', ParseIdPipe) propertyId: number, @Body() body: GscRowsDto) {
    const stored = await this.repo.storeRows(propertyId, body.rows);
    if (stored === null) throw ApiError.notFound('GSC property');
    return { stored };
  }
}
