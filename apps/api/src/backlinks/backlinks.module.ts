import { Module } from '@nestjs/common';
import { ResearchModule } from '../research/research.module';
import { BacklinksController } from './backlinks.controller';
import { BacklinksService } from './backlinks.service';

@Module({
  imports: [ResearchModule],
  controllers: [BacklinksController],
  providers: [BacklinksService],
})
export class BacklinksModule {}
