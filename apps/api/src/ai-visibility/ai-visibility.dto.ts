import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { ToInt } from '@app/gateway';

export class ShareOfVoiceQueryDto {
  @ApiProperty({
    type: 'integer',
    description: 'From GET /ai-visibility/projects; a project not owned gives 404',
  })
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  project_id: number;
}
