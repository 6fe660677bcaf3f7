import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiError, Clock, WithMeta, withMeta } from '@app/core';
import { AuthContext } from '@app/accounts';
import { ApiWarning, CurrentAuth, Endpoint, YOUR_DATA_COST, replacedValue } from '@app/gateway';
import { GscQueriesQueryDto } from './gsc.dto';
import { GscRepository } from './gsc.repository';
import { groupView, metricsView, propertyView } from './gsc.mapper';
import { GscQueryPlan, resolveGscQuery } from './gsc-query-params';
import { GscPropertiesAnswerSchema, GscQueriesAnswerSchema } from './gsc.schema';

@ApiTags('gsc')
@Controller('api/v1/gsc')
export class GscController {
  constructor(
    private readonly repo: GscRepository,
    private readonly clock: Clock,
  ) {}

  @Get('properties')
  @Endpoint({
    operationId: 'listGscProperties',
    summary: 'The account’s synced Search Console properties',
    description:
      'The service’s synced copy of each property and its last sync; nothing is fetched from ' +
      'Google at call time.',
    answer: GscPropertiesAnswerSchema,
    group: 'your-data',
    errors: [],
    cost: YOUR_DATA_COST,
    sample: {
      typescript: [
        'const { data } = await client.gscProperties();',
        'console.log(data.properties.map((p) => p.property_uri));',
      ].join('\n'),
      pythonPrint: 'answer["data"]["count"]',
    },
    client: 'gscProperties',
    mcp: 'list_gsc_properties',
  })
  async properties(@CurrentAuth() auth: AuthContext) {
    const properties = (await this.repo.listProperties(auth.accountId)).map(propertyView);
    return { properties, count: properties.length };
  }

  @Get('queries')
  @Endpoint({
    operationId: 'queryGsc',
    summary: 'Search Console performance aggregated by one dimension over a period',
    description:
      'Clicks, impressions, CTR and position per key of `dim` over [from, to], sorted and limited; ' +
      'totals cover the whole period whatever the limit, and total_rows counts the distinct keys. ' +
      'An unrecognized dim or sort falls back to query or clicks (data.dim and meta.sort say ' +
      'what was applied, and meta.warnings names the fallback); 404 when the property is not the account’s.',
    answer: GscQueriesAnswerSchema,
    group: 'your-data',
    errors: ['notFound', 'validation'],
    cost: YOUR_DATA_COST,
    sample: {
      query: { property_id: 45, dim: 'query', sort: 'clicks', limit: 10 },
      typescript: [
        'const { data } = await client.gscQueries({',
        '  property_id: 45,',
        "  dim: 'query',",
        "  sort: 'clicks',",
        '  limit: 10,',
        '});',
        'console.log(data.totals, data.rows.slice(0, 3));',
      ].join('\n'),
      pythonPrint: 'answer["data"]["totals"]',
    },
    client: 'gscQueries',
    mcp: 'query_gsc',
  })
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
      { sort: plan.sort, dir: plan.dir, limit: plan.limit, warnings: fallbackWarnings(q, plan) },
    );
  }
}

/** An unrecognized dim or sort falls back as the spec says; the answer names the fallback. */
function fallbackWarnings(q: GscQueriesQueryDto, plan: GscQueryPlan): ApiWarning[] {
  const warnings: ApiWarning[] = [];
  for (const field of ['dim', 'sort'] as const) {
    const given = q[field];
    if (typeof given === 'string' && given.trim().toLowerCase() !== plan[field].toLowerCase())
      warnings.push(replacedValue(field, given, plan[field]));
  }
  return warnings;
}
