import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { WithMeta } from '@app/core';
import type { AuthContext } from '@app/accounts';
import { ApiAnswer, CostGroup, CurrentAuth, RequestId } from '@app/gateway';
import { BacklinkProfile } from '@app/providers';
import { BacklinksService } from './backlinks.service';
import { BacklinksQueryDto } from './backlinks.dto';
import { BacklinksAnswerSchema } from './backlinks.schema';

@ApiTags('research')
@CostGroup('research')
@Controller('api/v1/backlinks')
export class BacklinksController {
  constructor(private readonly backlinks: BacklinksService) {}

  @Get()
  @ApiOperation({
    summary: 'Backlink profile of a domain',
    description:
      'Cached per account (Pro 2 days, Agency 7 days); a cache hit is free. Otherwise feature quota, then 1 credit; ' +
      'page > 1 or limit > 100 always costs 1 credit. No credit left: 402.',
  })
  @ApiAnswer(BacklinksAnswerSchema)
  profile(
    @CurrentAuth() auth: AuthContext,
    @RequestId() requestId: string,
    @Query() query: BacklinksQueryDto,
  ): Promise<WithMeta<BacklinkProfile>> {
    return this.backlinks.profile(auth, requestId, query);
  }
}
