import { Module } from '@nestjs/common';
import { RankController } from './rank.controller';
import { RankRepository } from './rank.repository';

/** GET /api/v1/rank/keywords and /rank/history (your-data: counted, never refused at the cap). */
@Module({ controllers: [RankController], providers: [RankRepository] })
export class RankModule {}
