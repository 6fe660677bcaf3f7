import {
  Body,
  Controller,
  ForbiddenException,
  Get,
  Module,
  Post,
  Query,
  UseFilters,
} from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { CostGroup, ToInt } from '@app/gateway';

/**
 * Test-only routes that exercise the shared pipeline independently of any resource:
 * a research-like route, a your-data-like route, a validating body, a crash, and errors
 * answered by Nest's own base filter instead of ours (they pass through the adapter's reply()).
 */
class ProbeBody {
  @IsString() @IsNotEmpty() @MaxLength(20) name: string;
  @IsInt() @Min(1) @Max(10) count: number;
}

class ProbeQuery {
  @IsOptional() @ToInt() @IsInt() @Min(1) @Max(500) limit?: number;
}

@CostGroup('research')
@Controller('api/v1/__probe/research')
class ResearchProbeController {
  @Get()
  get(@Query() q: ProbeQuery) {
    return { ok: true, limit: q.limit ?? null };
  }

  @Post()
  post(@Body() body: ProbeBody) {
    return { name: body.name, count: body.count };
  }
}

@CostGroup('research')
@Controller('api/v1/__probe/other-research')
class OtherResearchProbeController {
  @Get()
  get() {
    return { ok: true };
  }
}

@CostGroup('your-data')
@Controller('api/v1/__probe/your-data')
class YourDataProbeController {
  @Get()
  get() {
    return { ok: true };
  }
}

@Controller('api/v1/__probe/boom')
class BoomProbeController {
  @Get()
  boom(): never {
    throw new Error('secret internal detail: password=hunter2 at /srv/app.ts:42');
  }
}

@Controller('api/v1/__probe/base-filter')
@UseFilters(BaseExceptionFilter)
class BaseFilterProbeController {
  @Get('forbidden')
  forbidden(): never {
    throw new ForbiddenException('Probe: forbidden by a Nest exception');
  }

  @Get('crash')
  crash(): never {
    throw new Error('secret internal detail: token=abc123');
  }
}

@Module({
  controllers: [
    BaseFilterProbeController,
    ResearchProbeController,
    OtherResearchProbeController,
    YourDataProbeController,
    BoomProbeController,
  ],
})
export class ProbeModule {}
