import { Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { WithMeta } from '@app/core';
import { SessionContext } from '@app/accounts';
import { AccountAreaController } from '../session/account-area.decorator';
import { CurrentSession } from '../session/session.decorator';
import { RankKeywordsQueryDto } from './rank.dto';
import { RankKeywordsReader } from './rank-keywords-reader';

/**
 * GET /account/v1/rank/keywords: the tracked keywords with position, previous position and
 * movement for the console's rank section (session cookie, not metered); the answer of
 * GET /api/v1/rank/keywords, with meta.next naming this route.
 */
@AccountAreaController()
export class AccountRankKeywordsController {
  constructor(private readonly keywords: RankKeywordsReader) {}

  @Get('rank/keywords')
  @ApiOperation({ summary: 'Tracked keywords with their latest position (paged like /api/v1)' })
  list(
    @CurrentSession() session: SessionContext,
    @Query() q: RankKeywordsQueryDto,
  ): Promise<WithMeta<unknown>> {
    return this.keywords.read(session.accountId, q, '/account/v1/rank/keywords');
  }
}
