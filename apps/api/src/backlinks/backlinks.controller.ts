import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WithMeta } from '@app/core';
import type { AuthContext } from '@app/accounts';
import { CurrentAuth, Endpoint, RequestId } from '@app/gateway';
import { BacklinkProfile } from '@app/providers';
import { BacklinksService } from './backlinks.service';
import { BacklinksQueryDto } from './backlinks.dto';
import { BacklinksAnswerSchema } from './backlinks.schema';

@ApiTags('research')
@Controller('api/v1/backlinks')
export class BacklinksController {
  constructor(private readonly backlinks: BacklinksService) {}

  @Get()
  @Endpoint({
    operationId: 'getBacklinks',
    summary: 'Backlink profile of a domain',
    description:
      'Cached per account (Pro 2 days, Agency 7 days); a cache hit is free. Otherwise feature quota, then 1 credit; ' +
      'page > 1 or limit > 100 always costs 1 credit. No credit left: 402.',
    group: 'research',
    answer: BacklinksAnswerSchema,
    errors: ['noCredit', 'alreadyRunning', 'validation', 'upstream'],
    cost:
      'Research call: one API call. A cache hit (meta.cached) uses no feature quota and no credit. ' +
      'Otherwise one unit of the monthly backlinks quota, or 1 credit once it is used up (402 ' +
      'PAYMENT_REQUIRED when no credit remains); page > 1 or limit > 100 always costs 1 credit. ' +
      'An error charges nothing.',
    sample: {
      query: { domain: 'example.com', limit: 10 },
      typescript: [
        "const { data, meta } = await client.backlinks({ domain: 'example.com', limit: 10 });",
        'console.log(data.total_backlinks, data.backlinks.length, meta.cached);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["total_backlinks"], answer["meta"]["cached"]',
    },
    client: 'backlinks',
    mcp: 'get_backlinks',
  })
  profile(
    @CurrentAuth() auth: AuthContext,
    @RequestId() requestId: string,
    @Query() query: BacklinksQueryDto,
  ): Promise<WithMeta<BacklinkProfile>> {
    return this.backlinks.profile(auth, requestId, query);
  }
}
