import { QueryId, QueryInt } from '@app/gateway';

export class RankKeywordsQueryDto {
  @QueryId({
    optional: true,
    api: { description: 'Restrict to one project; another account’s project gives 404' },
  })
  project_id?: number;

  @QueryInt(1, 500, { optional: true, api: { default: 100 } })
  limit?: number;
}

export class RankHistoryQueryDto {
  @QueryId({ api: { description: 'From GET /rank/keywords; a keyword not owned gives 404' } })
  keyword_id: number;

  @QueryInt(1, 365, { optional: true, api: { default: 90 } })
  days?: number;
}
