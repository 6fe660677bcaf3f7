import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@app/gateway';
import { PageAssets, parseAssetFile } from './page-assets';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * GET /assets/<name>.<hash>.<ext>: the pages' stylesheets and scripts. The current hash is
 * cached for a year; an older hash (a page rendered before a deploy) still gets the current
 * file, revalidated every time, so a rolling deploy never leaves a page unstyled.
 */
@ApiExcludeController()
@Public()
@Controller('assets')
export class AssetsController {
  constructor(private readonly assets: PageAssets) {}

  @Get(':file')
  asset(@Param('file') file: string, @Res() res: Response): void {
    res.removeHeader('Access-Control-Allow-Origin');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const parsed = parseAssetFile(file);
    const asset = parsed ? this.assets.find(parsed.name) : undefined;
    if (!parsed || !asset) {
      res.status(404).type('text/plain; charset=utf-8').send('Not found');
      return;
    }
    res.setHeader('Cache-Control', parsed.hash === asset.hash ? IMMUTABLE : 'no-cache');
    res.status(200).type(asset.type).send(asset.body);
  }
}
