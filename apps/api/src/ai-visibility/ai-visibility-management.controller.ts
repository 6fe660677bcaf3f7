import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiExtraModels, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthContext } from '@app/accounts';
import { CurrentAuth, Endpoint, ParseIdPipe, YOUR_DATA_COST } from '@app/gateway';
import {
  AiCompetitorDto,
  AiProjectChangesDto,
  NewAiProjectDto,
} from './ai-visibility-management.dto';
import {
  AiProjectCreatedAnswerSchema,
  AiProjectDeletedAnswerSchema,
  AiProjectSettingsAnswerSchema,
} from './ai-visibility-management.schema';
import { AiVisibilityManagementService } from './ai-visibility-management.service';

/** A path id: a positive integer (anything else is 404 NOT_FOUND, ParseIdPipe). */
const projectIdParam = () =>
  ApiParam({ name: 'project_id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } });

/** What every management route is: your-data, an extension of the spec. */
const MANAGEMENT = { group: 'your-data', cost: YOUR_DATA_COST, extension: true } as const;

const SAMPLE_PROJECT = {
  domain: 'example.com',
  brand_name: 'Example',
  brand_aliases: ['Example Inc'],
  target_country: 'US',
  target_language: 'en',
  ai_engine: 'chatgpt',
  tracking_frequency: 'weekly',
  prompts: ['best running shoes for beginners', 'which running shoe brand lasts longest'],
  competitors: [{ name: 'Rival', domain: 'rival.com' }],
};

/**
 * AI-visibility management with the API key (docs/ai-visibility-management.md): the
 * customer's brand, aliases, market, engine, frequency, prompts and competitors. Your-data
 * routes: counted, never refused at the monthly cap. The account area has the same
 * operations (AccountAiVisibilityController); both call AiVisibilityManagementService.
 */
@ApiTags('ai-visibility')
@ApiExtraModels(AiCompetitorDto)
@Controller('api/v1/ai-visibility/projects')
export class AiVisibilityManagementController {
  constructor(private readonly projects: AiVisibilityManagementService) {}

  @Post()
  @Endpoint({
    ...MANAGEMENT,
    operationId: 'createAiVisibilityProject',
    summary: 'Create an AI-visibility project: brand, market, engine, prompts, competitors',
    description:
      'The domain (and each competitor’s) is stored normalised (lower case, no scheme, path, ' +
      'port or leading www.). `ai_engine`: chatgpt, claude, gemini or perplexity; ' +
      '`tracking_frequency`: daily or weekly; prompts: 1 to the plan’s ' +
      '`ai_visibility_prompts_per_project`, 3-500 characters each, distinct; at most 20 ' +
      'competitors with distinct domains, none the project’s own. The first scan runs within ' +
      'minutes. One project per domain and engine (422 on `domain` otherwise). Past the plan’s ' +
      '`ai_visibility_projects` or prompts limit: 402 with meta.limit, meta.used and ' +
      'meta.requested, nothing created.',
    answer: AiProjectCreatedAnswerSchema,
    status: 201,
    answerDescription: 'Created',
    errors: ['validation', 'aiVisibilityLimit'],
    sample: {
      body: SAMPLE_PROJECT,
      typescript: [
        'const { data } = await client.createAiVisibilityProject({',
        "  domain: 'example.com', brand_name: 'Example', target_country: 'US', target_language: 'en',",
        "  ai_engine: 'chatgpt', tracking_frequency: 'weekly',",
        "  prompts: ['best running shoes for beginners'],",
        "  competitors: [{ name: 'Rival', domain: 'rival.com' }],",
        '});',
        'console.log(data.id, data.prompts.length);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["id"]',
    },
    client: 'createAiVisibilityProject',
    mcp: 'create_ai_visibility_project',
  })
  createProject(@CurrentAuth() auth: AuthContext, @Body() body: NewAiProjectDto) {
    return this.projects.createProject(auth.accountId, body);
  }

  @Get(':project_id/settings')
  @Endpoint({
    ...MANAGEMENT,
    operationId: 'getAiVisibilitySettings',
    summary: 'A project’s prompts, aliases, competitors, engine, frequency and next scan',
    description:
      'next_scan_at is when the next scan starts (UTC), null for a project the service never ' +
      'scans (one without prompts, as the admin ingestion makes them).',
    answer: AiProjectSettingsAnswerSchema,
    errors: ['notFound'],
    sample: {
      path: { project_id: '67' },
      typescript: [
        'const { data } = await client.aiVisibilitySettings(67);',
        'console.log(data.prompts.length, data.next_scan_at);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["next_scan_at"]',
    },
    client: 'aiVisibilitySettings',
    mcp: 'get_ai_visibility_settings',
  })
  @projectIdParam()
  settings(@CurrentAuth() auth: AuthContext, @Param('project_id', ParseIdPipe) projectId: number) {
    return this.projects.settings(auth.accountId, projectId);
  }

  @Patch(':project_id')
  @Endpoint({
    ...MANAGEMENT,
    operationId: 'updateAiVisibilityProject',
    summary: 'Change any member of a project (answers its settings)',
    description:
      'Any member of the create body, with the same rules; a list sent replaces the stored ' +
      'one. Changing the prompts, engine or market makes the project due now (scanned within ' +
      'minutes). More prompts than the plan’s `ai_visibility_prompts_per_project`: 402, ' +
      'nothing changed.',
    answer: AiProjectSettingsAnswerSchema,
    errors: ['notFound', 'validation', 'aiVisibilityLimit'],
    sample: {
      path: { project_id: '67' },
      body: { tracking_frequency: 'daily' },
      typescript: [
        "const { data } = await client.updateAiVisibilityProject(67, { tracking_frequency: 'daily' });",
        'console.log(data.tracking_frequency);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["tracking_frequency"]',
    },
    client: 'updateAiVisibilityProject',
    mcp: 'update_ai_visibility_project',
  })
  @projectIdParam()
  updateProject(
    @CurrentAuth() auth: AuthContext,
    @Param('project_id', ParseIdPipe) projectId: number,
    @Body() body: AiProjectChangesDto,
  ) {
    return this.projects.updateProject(auth.accountId, projectId, body);
  }

  @Delete(':project_id')
  @Endpoint({
    ...MANAGEMENT,
    operationId: 'deleteAiVisibilityProject',
    summary: 'Delete a project with its scans and answers',
    answer: AiProjectDeletedAnswerSchema,
    errors: ['notFound'],
    sample: {
      path: { project_id: '68' },
      typescript: [
        'const { data } = await client.deleteAiVisibilityProject(68);',
        'console.log(data.deleted);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["deleted"]',
    },
    client: 'deleteAiVisibilityProject',
    mcp: 'delete_ai_visibility_project',
  })
  @projectIdParam()
  deleteProject(
    @CurrentAuth() auth: AuthContext,
    @Param('project_id', ParseIdPipe) projectId: number,
  ) {
    return this.projects.deleteProject(auth.accountId, projectId);
  }
}
