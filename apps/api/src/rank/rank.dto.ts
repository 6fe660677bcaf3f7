import { ApiPropertyOptions } from '@nestjs/swagger';
import { PG_INT_MAX, QueryId, QueryInt } from '@app/gateway';

export class RankKeywordsQueryDto {
  @QueryId({
    optional: true,
    api: { description: 'Restrict to one project; another account’s project gives 404' },
  })
  project_id?: number;

  @QueryInt(1, 500, { optional: true, api: { default: 100 } })
  limit?: number;

  /** An extension of the spec: paging (meta.total and meta.next say where the next page is). */
  @QueryInt(0, PG_INT_MAX, {
    optional: true,
    api: {
      default: 0,
      description:
        'Keywords to skip in the answer’s order (paging; meta.next is the next page). ' +
        'An extension of the API specification.',
      'x-spec-extension': true,
    } as ApiPropertyOptions,
  })
  offset?: number;
}

export class RankHistoryQueryDto {
  @QueryId({ api: { description: 'From GET /rank/keywords; a keyword not owned gives 404' } })
  keyword_id: number;

  @QueryInt(1, 365, { optional: true, api: { default: 90 } })
  days?: number;
}
