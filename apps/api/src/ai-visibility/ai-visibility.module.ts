import { Module } from '@nestjs/common';
import { AiVisibilityController } from './ai-visibility.controller';
import { AiVisibilityRepository } from './ai-visibility.repository';

/** GET /api/v1/ai-visibility/projects and /share-of-voice (your-data: counted, never refused at the cap). */
@Module({ controllers: [AiVisibilityController], providers: [AiVisibilityRepository] })
export class AiVisibilityModule {}
