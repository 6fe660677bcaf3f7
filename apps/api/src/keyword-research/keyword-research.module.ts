import { Module } from '@nestjs/common';
import { BillingModule } from '@app/billing';
import { ResearchModule } from '../research/research.module';
import { KeywordResearchController } from './keyword-research.controller';
import { KeywordResearchService } from './keyword-research.service';
import { LocationsController } from './locations.controller';

@Module({
  imports: [ResearchModule, BillingModule],
  controllers: [LocationsController, KeywordResearchController],
  providers: [KeywordResearchService],
})
export class KeywordResearchModule {}
