import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiError } from '@app/core';
import { Public } from '@app/gateway';
import { POSTBACK_MAX_COMPRESSED_BYTES } from '@app/providers';
import { PostbackReceipt, RankPostbackService } from './rank-postback.service';

/**
 * DataForSEO's postbacks of rank-collection tasks (docs/rank-collection.md, "Postbacks"):
 * `POST /collect/dataforseo/serp/postback?id=<task id>&tag=<task tag>&token=<task token>`,
 * outside /api/v1 (no API key: the token authenticates; not metered). 200 once the check is
 * stored (or was already); any other answer makes the provider list the task in tasks_ready.
 */
@ApiExcludeController()
@Public()
@Controller('collect/dataforseo/serp')
export class RankPostbackController {
  constructor(private readonly postbacks: RankPostbackService) {}

  @Post('postback')
  @HttpCode(200)
  async receive(@Req() req: Request): Promise<PostbackReceipt> {
    // The token first: a caller without it gets 401 with its body unread.
    const auth = this.postbacks.authenticate(req.query);
    const body = await readCapped(req, POSTBACK_MAX_COMPRESSED_BYTES);
    return this.postbacks.receive(auth, req.query.id, req.headers['content-encoding'], body);
  }
}

/** The raw body (no parser runs on this path: app.setup.ts), refused past `max` bytes. */
async function readCapped(req: Request, max: number): Promise<Buffer> {
  const tooLarge = () =>
    new ApiError('PAYLOAD_TOO_LARGE', `The postback body must not exceed ${max} bytes.`, {
      headers: { Connection: 'close' },
    });
  if (Number(req.headers['content-length'] ?? 0) > max) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
