import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/** The baseline: a bare NestJS 11 route on platform-express, no pipeline, no database. */
@Controller('bare')
class BareController {
  @Get()
  get(): { ok: boolean } {
    return { ok: true };
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(BareModule, { logger: false });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 3901), '127.0.0.1');
  console.log('ready');
}

void main();
