import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WithMeta } from '@app/core';
import type { AuthContext } from '@app/accounts';
import { CurrentAuth, Endpoint, RequestId } from '@app/gateway';
import type { KeywordResearchData } from '@app/providers';
import { KeywordResearchService } from './keyword-research.service';
import { KeywordResearchDto } from './keyword-research.dto';
import { KeywordResearchAnswerSchema } from './keyword-research.schema';

@ApiTags('research')
@Controller('api/v1/keyword-research')
export class KeywordResearchController {
  constructor(private readonly service: KeywordResearchService) {}

  @Post()
  @HttpCode(200)
  @Endpoint({
    operationId: 'researchKeyword',
    summary: 'Metrics of a keyword and its related keywords',
    description:
      'Cached lookups are free (meta.cached true). Otherwise one unit of feature quota; used up: 429 QUOTA_EXCEEDED.',
    group: 'research',
    answer: KeywordResearchAnswerSchema,
    errors: [
      'alreadyRunning',
      'wrongContentType',
      'validation',
      'unsupportedLocation',
      'keywordQuota',
      'upstream',
    ],
    cost:
      'Research call: one API call. A cache hit (meta.cached) uses no feature quota. Otherwise one ' +
      'unit of the monthly keyword-research quota (429 QUOTA_EXCEEDED when used up; never credits). ' +
      'An error charges nothing.',
    sample: {
      body: { keyword: 'running shoes', location_code: 2840, limit: 5 },
      typescript: [
        'const { data } = await client.keywordResearch({',
        "  keyword: 'running shoes',",
        '  location_code: 2840,',
        '  limit: 5,',
        '});',
        'console.log(data.overview.search_volume, data.related_keywords.map((k) => k.keyword));',
      ].join('\n'),
      pythonPrint: 'answer["data"]["overview"]["search_volume"]',
    },
    client: 'keywordResearch',
    mcp: 'keyword_research',
  })
  research(
    @CurrentAuth() auth: AuthContext,
    @RequestId() requestId: string,
    @Body() body: KeywordResearchDto,
  ): Promise<WithMeta<KeywordResearchData>> {
    return this.service.research(auth, requestId, body);
  }
}
