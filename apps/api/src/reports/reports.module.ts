import { Module } from '@nestjs/common';
import { JobsModule } from '@app/jobs';
import { ReportsController } from './reports.controller';

@Module({ imports: [JobsModule], controllers: [ReportsController] })
export class ReportsModule {}
