import { Module } from '@nestjs/common';
import { JobsModule } from '@app/jobs';
import { JobsController } from './jobs.controller';

/** GET /api/v1/jobs/:job_id. */
@Module({ imports: [JobsModule], controllers: [JobsController] })
export class JobsApiModule {}
