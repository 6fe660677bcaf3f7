import { Module } from '@nestjs/common';
import { BillingModule } from '@app/billing';
import { ResearchModule } from '../research/research.module';
import { BacklinksController } from './backlinks.controller';
import { BacklinksService } from './backlinks.service';

@Module({
  imports: [ResearchModule, BillingModule],
  controllers: [BacklinksController],
  providers: [BacklinksService],
})
export class BacklinksModule {}
