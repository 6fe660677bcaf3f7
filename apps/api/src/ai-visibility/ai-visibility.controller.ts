import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiError } from '@app/core';
import { AuthContext } from '@app/accounts';
import { CostGroup, CurrentAuth } from '@app/gateway';
import { ShareOfVoiceQueryDto } from './ai-visibility.dto';
import { AiVisibilityRepository } from './ai-visibility.repository';
import { projectView, shareOfVoiceView } from './ai-visibility.mapper';

@ApiTags('ai-visibility')
@CostGroup('your-data')
@Controller('api/v1/ai-visibility')
export class AiVisibilityController {
  constructor(private readonly repo: AiVisibilityRepository) {}

  @Get('projects')
  @ApiOperation({ summary: 'The account’s AI-visibility projects with their latest scores' })
  async projects(@CurrentAuth() auth: AuthContext) {
    const projects = (await this.repo.listProjects(auth.accountId)).map(projectView);
    return { projects, count: projects.length };
  }

  @Get('share-of-voice')
  @ApiOperation({
    summary: 'The latest scan of a project: snapshot, share of voice, top 20 competitors',
  })
  async shareOfVoice(@CurrentAuth() auth: AuthContext, @Query() q: ShareOfVoiceQueryDto) {
    const project = await this.repo.project(auth.accountId, q.project_id);
    if (!project) throw ApiError.notFound('Project');
    const snapshot = await this.repo.latestSnapshot(auth.accountId, project.id);
    const competitors = snapshot ? await this.repo.topCompetitors(auth.accountId, snapshot.id) : [];
    return shareOfVoiceView(project, snapshot, competitors);
  }
}
