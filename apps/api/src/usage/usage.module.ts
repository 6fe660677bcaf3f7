import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';

@Module({
  imports: [AccountsModule],
  controllers: [UsageController],
  providers: [UsageService],
  exports: [UsageService],
})
export class UsageModule {}
