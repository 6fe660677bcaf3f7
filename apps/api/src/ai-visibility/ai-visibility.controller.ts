import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiError } from '@app/core';
import { AuthContext } from '@app/accounts';
import { CurrentAuth, Endpoint, YOUR_DATA_COST } from '@app/gateway';
import { ShareOfVoiceQueryDto } from './ai-visibility.dto';
import { AiVisibilityRepository } from './ai-visibility.repository';
import { shareOfVoiceView } from './ai-visibility.mapper';
import { AiVisibilityReadsService } from './ai-visibility-reads.service';
import { AiProjectsAnswerSchema, ShareOfVoiceAnswerSchema } from './ai-visibility.schema';

@ApiTags('ai-visibility')
@Controller('api/v1/ai-visibility')
export class AiVisibilityController {
  constructor(
    private readonly repo: AiVisibilityRepository,
    private readonly reads: AiVisibilityReadsService,
  ) {}

  @Get('projects')
  @Endpoint({
    operationId: 'listAiVisibilityProjects',
    summary: 'The account’s AI-visibility projects with their latest scores',
    description:
      'What the last scheduled scan stored for each project; no AI provider is called at request ' +
      'time. score_change is null until a project has been scanned twice.',
    answer: AiProjectsAnswerSchema,
    group: 'your-data',
    errors: [],
    cost: YOUR_DATA_COST,
    sample: {
      typescript: [
        'const { data } = await client.aiVisibilityProjects();',
        'console.log(data.projects.map((p) => [p.domain, p.visibility_score]));',
      ].join('\n'),
      pythonPrint: 'answer["data"]["count"]',
    },
    client: 'aiVisibilityProjects',
    mcp: 'list_ai_visibility_projects',
  })
  projects(@CurrentAuth() auth: AuthContext) {
    return this.reads.projects(auth.accountId);
  }

  @Get('share-of-voice')
  @Endpoint({
    operationId: 'getShareOfVoice',
    summary: 'The latest scan of a project: snapshot, share of voice, top 20 competitors',
    description:
      'latest_snapshot is null before the first scan completes. mention_rate is coverage (share of ' +
      'prompts that named the brand); brand_share_pct is competitive position (the brand’s share ' +
      'of all mentions of it and its tracked competitors, null when there are none). 404 when the ' +
      'project is not the account’s.',
    answer: ShareOfVoiceAnswerSchema,
    group: 'your-data',
    errors: ['notFound', 'validation'],
    cost: YOUR_DATA_COST,
    sample: {
      query: { project_id: 67 },
      typescript: [
        'const { data } = await client.shareOfVoice({ project_id: 67 });',
        'console.log(data.share_of_voice.brand_share_pct, data.competitors.length);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["share_of_voice"]',
    },
    client: 'shareOfVoice',
    mcp: 'get_share_of_voice',
  })
  async shareOfVoice(@CurrentAuth() auth: AuthContext, @Query() q: ShareOfVoiceQueryDto) {
    const project = await this.repo.project(auth.accountId, q.project_id);
    if (!project) throw ApiError.notFound('Project');
    const snapshot = await this.repo.latestSnapshot(auth.accountId, project.id);
    const competitors = snapshot ? await this.repo.topCompetitors(auth.accountId, snapshot.id) : [];
    return shareOfVoiceView(project, snapshot, competitors);
  }
}
