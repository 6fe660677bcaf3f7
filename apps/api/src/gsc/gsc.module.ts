import { Module } from '@nestjs/common';
import { GscController } from './gsc.controller';
import { GscRepository } from './gsc.repository';

/** GET /api/v1/gsc/properties and /gsc/queries (your-data: counted, never refused at the cap). */
@Module({ controllers: [GscController], providers: [GscRepository] })
export class GscModule {}
