import { Module } from '@nestjs/common';
import { AdminRoutesModule } from '../admin-routes/admin-routes.module';
import { GscController } from './gsc.controller';
import { GscIngestionController } from './gsc-ingestion.controller';
import { GscRepository } from './gsc.repository';
import { GscIngestionRepository } from '@app/database';

/**
 * Search Console: GET /api/v1/gsc/properties and /gsc/queries (your-data: counted, never
 * refused at the cap) and the admin ingestion under /admin/v1 (properties, daily rows).
 */
@Module({
  imports: [AdminRoutesModule],
  controllers: [GscController, GscIngestionController],
  providers: [GscRepository, GscIngestionRepository],
  exports: [GscIngestionRepository],
})
export class GscModule {}
