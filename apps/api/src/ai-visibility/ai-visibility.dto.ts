import { QueryId } from '@app/gateway';

export class ShareOfVoiceQueryDto {
  @QueryId({
    api: { description: 'From GET /ai-visibility/projects; a project not owned gives 404' },
  })
  project_id: number;
}
