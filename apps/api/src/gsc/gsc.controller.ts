import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiError, Clock, WithMeta, withMeta } from '@app/core';
import { AuthContext } from '@app/accounts';
import { ApiAnswer, CostGroup, CurrentAuth } from '@app/gateway';
import { GscQueriesQueryDto } from './gsc.dto';
import { GscRepository } from './gsc.repository';
import { groupView, metricsView, propertyView } from './gsc.mapper';
import { resolveGscQuery } from './gsc-query-params';
import { GscPropertiesAnswerSchema, GscQueriesAnswerSchema } from './gsc.schema';

@ApiTags('gsc')
@CostGroup('your-data')
@Controller('api/v1/gsc')
export class GscController {
  constructor(
    private readonly repo: GscRepository,
    private readonly clock: Clock,
  ) {}

  @Get('properties')
  @ApiOperation({
    summary: 'The account’s synced Search Console properties',
    description:
      'The service’s synced copy of each property and its last sync; nothing is fetched from ' +
      'Google at call time.',
  })
  @ApiAnswer(GscPropertiesAnswerSchema)
  async properties(@CurrentAuth() auth: AuthContext) {
    const properties = (await this.repo.listProperties(auth.accountId)).map(propertyView);
    return { properties, count: properties.length };
  }

  @Get('queries')
  @ApiOperation({
    summary: 'Search Console performance aggregated by one dimension over a period',
    description:
      'Clicks, impressions, CTR and position per key of `dim` over [from, to], sorted and limited; ' +
      'totals cover the whole period whatever the limit, and total_rows counts the distinct keys. ' +
      'An unrecognized dim or sort falls back to query or clicks (data.dim and meta.sort say ' +
      'what was applied); 404 when the property is not the account’s.',
  })
  @ApiAnswer(GscQueriesAnswerSchema)
  async queries(
    @CurrentAuth() auth: AuthContext,
    @Query() q: GscQueriesQueryDto,
  ): Promise<WithMeta<unknown>> {
    const plan = resolveGscQuery(q, this.clock.now());
    if (!(await this.repo.propertyOwned(auth.accountId, q.property_id)))
      throw ApiError.notFound('Property');
    const agg = await this.repo.aggregate(auth.accountId, q.property_id, plan);
    return withMeta(
      {
        property_id: q.property_id,
        dim: plan.dim,
        from: plan.from,
        to: plan.to,
        totals: metricsView(agg.totals ?? { clicks: 0, impressions: 0, position_weighted: 0 }),
        rows: agg.rows.map(groupView),
        total_rows: agg.total_rows,
      },
      { sort: plan.sort, dir: plan.dir, limit: plan.limit },
    );
  }
}
