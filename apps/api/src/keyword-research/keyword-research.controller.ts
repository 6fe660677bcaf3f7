import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { WithMeta } from '@app/core';
import type { AuthContext } from '@app/accounts';
import { ApiAnswer, CostGroup, CurrentAuth, RequestId } from '@app/gateway';
import type { KeywordResearchData } from '@app/providers';
import { KeywordResearchService } from './keyword-research.service';
import { KeywordResearchDto } from './keyword-research.dto';
import { KeywordResearchAnswerSchema } from './keyword-research.schema';

@ApiTags('research')
@CostGroup('research')
@Controller('api/v1/keyword-research')
export class KeywordResearchController {
  constructor(private readonly service: KeywordResearchService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Metrics of a keyword and its related keywords',
    description:
      'Cached lookups are free (meta.cached true). Otherwise one unit of feature quota; used up: 429 QUOTA_EXCEEDED.',
  })
  @ApiAnswer(KeywordResearchAnswerSchema)
  research(
    @CurrentAuth() auth: AuthContext,
    @RequestId() requestId: string,
    @Body() body: KeywordResearchDto,
  ): Promise<WithMeta<KeywordResearchData>> {
    return this.service.research(auth, requestId, body);
  }
}
