import { Body, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { SessionContext } from '@app/accounts';
import { ParseIdPipe } from '@app/gateway';
import { AccountAreaController } from '../session/account-area.decorator';
import { CurrentSession } from '../session/session.decorator';
import { AiProjectChangesDto, NewAiProjectDto } from './ai-visibility-management.dto';
import { AiVisibilityManagementService } from './ai-visibility-management.service';
import { AiVisibilityReadsService } from './ai-visibility-reads.service';

/**
 * AI-visibility management in the account area (session cookie, same-origin and CSRF rules
 * of every /account/v1 route; not metered): the same paths as under /api/v1, the same
 * answers and errors, through the same AiVisibilityManagementService
 * (docs/ai-visibility-management.md); plus what the console reads of a project: its scores
 * over time (the chart, drawn by the server) and the latest answer to each prompt.
 */
@AccountAreaController()
export class AccountAiVisibilityController {
  constructor(
    private readonly projects: AiVisibilityManagementService,
    private readonly reads: AiVisibilityReadsService,
  ) {}

  @Get('ai-visibility/projects')
  @ApiOperation({ summary: 'The account’s AI-visibility projects with their latest scores' })
  listProjects(@CurrentSession() session: SessionContext) {
    return this.reads.projects(session.accountId);
  }

  @Post('ai-visibility/projects')
  @ApiOperation({ summary: 'Create a project (402 past the plan’s AI-visibility limits)' })
  createProject(@CurrentSession() session: SessionContext, @Body() body: NewAiProjectDto) {
    return this.projects.createProject(session.accountId, body);
  }

  @Get('ai-visibility/projects/:project_id/settings')
  @ApiOperation({ summary: 'A project’s prompts, aliases, competitors, engine and next scan' })
  settings(
    @CurrentSession() session: SessionContext,
    @Param('project_id', ParseIdPipe) projectId: number,
  ) {
    return this.projects.settings(session.accountId, projectId);
  }

  @Patch('ai-visibility/projects/:project_id')
  @ApiOperation({ summary: 'Change any member of a project (answers its settings)' })
  updateProject(
    @CurrentSession() session: SessionContext,
    @Param('project_id', ParseIdPipe) projectId: number,
    @Body() body: AiProjectChangesDto,
  ) {
    return this.projects.updateProject(session.accountId, projectId, body);
  }

  @Delete('ai-visibility/projects/:project_id')
  @ApiOperation({ summary: 'Delete a project with its scans and answers' })
  deleteProject(
    @CurrentSession() session: SessionContext,
    @Param('project_id', ParseIdPipe) projectId: number,
  ) {
    return this.projects.deleteProject(session.accountId, projectId);
  }

  @Get('ai-visibility/projects/:project_id/scores')
  @ApiOperation({
    summary: 'The project’s scores over its stored scans, with the chart the console shows',
  })
  scores(
    @CurrentSession() session: SessionContext,
    @Param('project_id', ParseIdPipe) projectId: number,
  ) {
    return this.reads.scores(session.accountId, projectId);
  }

  @Get('ai-visibility/projects/:project_id/answers')
  @ApiOperation({
    summary: 'Each prompt with its latest answer: text, cited sources, tracked brands mentioned',
  })
  answers(
    @CurrentSession() session: SessionContext,
    @Param('project_id', ParseIdPipe) projectId: number,
  ) {
    return this.reads.answers(session.accountId, projectId);
  }
}
