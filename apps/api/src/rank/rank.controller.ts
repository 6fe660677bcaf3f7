import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiError, Clock, WithMeta, addDays, parsePlainDate, plainDate, withMeta } from '@app/core';
import { AuthContext } from '@app/accounts';
import { CurrentAuth, Endpoint, YOUR_DATA_COST } from '@app/gateway';
import { RankHistoryQueryDto, RankKeywordsQueryDto } from './rank.dto';
import { RankRepository } from './rank.repository';
import { RankKeywordsReader } from './rank-keywords-reader';
import { historyEntryView, keywordHeadView, trendOf } from './rank.mapper';
import { RankHistoryAnswerSchema, RankKeywordsAnswerSchema } from './rank.schema';

@ApiTags('rank')
@Controller('api/v1/rank')
export class RankController {
  constructor(
    private readonly repo: RankRepository,
    private readonly keywordPages: RankKeywordsReader,
    private readonly clock: Clock,
  ) {}

  @Get('keywords')
  @Endpoint({
    operationId: 'listRankKeywords',
    summary: 'Tracked keywords with their latest position (ordered by project id, then keyword id)',
    description:
      'The account’s tracked keywords, all projects or one (project_id; 404 when not the ' +
      'account’s), each with its latest check. A keyword never checked has null in every ' +
      'latest-position field, never 0; position_change is positive when it moved up. ' +
      'Paging (an extension of the specification): `offset` skips keywords in this order, ' +
      'meta.total counts the keywords matching across all pages and meta.next is the path ' +
      'and query of the next page (null on the last one).',
    answer: RankKeywordsAnswerSchema,
    group: 'your-data',
    errors: ['notFound', 'validation'],
    cost: YOUR_DATA_COST,
    sample: {
      query: { limit: 20 },
      typescript: [
        'const { data } = await client.rankKeywords({ limit: 20 });',
        'for (const k of data.keywords) console.log(k.keyword, k.current_position, k.position_change);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["count"]',
    },
    client: 'rankKeywords',
    mcp: 'list_rank_keywords',
  })
  keywords(
    @CurrentAuth() auth: AuthContext,
    @Query() q: RankKeywordsQueryDto,
  ): Promise<WithMeta<unknown>> {
    return this.keywordPages.read(auth.accountId, q, '/api/v1/rank/keywords');
  }

  @Get('history')
  @Endpoint({
    operationId: 'getRankHistory',
    summary: 'Position history of one keyword over the last `days` days (newest first)',
    description:
      'One entry per check in the window (today and the `days` − 1 days before), newest first, ' +
      'and the trend: first, latest, best and worst position (best and worst ignore unranked ' +
      'checks and are null when the keyword never ranked). 404 when the keyword is not the account’s.',
    answer: RankHistoryAnswerSchema,
    group: 'your-data',
    errors: ['notFound', 'validation'],
    cost: YOUR_DATA_COST,
    sample: {
      query: { keyword_id: 123, days: 30 },
      typescript: [
        'const { data } = await client.rankHistory({ keyword_id: 123, days: 30 });',
        'console.log(data.keyword.keyword, data.trend);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["trend"]',
    },
    client: 'rankHistory',
    mcp: 'get_rank_history',
  })
  async history(
    @CurrentAuth() auth: AuthContext,
    @Query() q: RankHistoryQueryDto,
  ): Promise<WithMeta<unknown>> {
    const days = q.days ?? 90;
    const head = await this.repo.keywordHead(auth.accountId, q.keyword_id);
    if (!head) throw ApiError.notFound('Keyword');
    // The window is the last `days` calendar days including today: [today − (days − 1), today].
    const today = parsePlainDate(plainDate(this.clock.now()))!;
    const from = plainDate(addDays(today, -(days - 1)));
    const checks = await this.repo.history(auth.accountId, q.keyword_id, from, plainDate(today));
    return withMeta(
      {
        keyword: keywordHeadView(head),
        history: checks.map(historyEntryView),
        trend: trendOf(checks),
      },
      { days_requested: days, points: checks.length },
    );
  }
}
