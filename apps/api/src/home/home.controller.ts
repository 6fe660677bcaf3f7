import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@app/gateway';
import { Readiness } from '../health/readiness';
import { PageAssets } from '../pages/page-assets';
import { pageHeaders, renderPage } from '../pages/page-response';
import { HOME_PAGE, homePage } from './home.view';

/**
 * GET /: a small landing page for a person who opens the service's address: the API
 * reference, the account area, health, and whether the service is up right now.
 */
@ApiExcludeController()
@Public()
@Controller()
export class HomeController {
  constructor(
    private readonly readiness: Readiness,
    private readonly assets: PageAssets,
  ) {}

  @Get()
  async home(@Res() res: Response): Promise<void> {
    const checks = await this.readiness.check();
    pageHeaders(res);
    await renderPage(res, 200, HOME_PAGE, homePage(checks));
  }

  /** Where browsers look for an icon by default: the pages' favicon (an SVG, cached for long). */
  @Get('favicon.ico')
  favicon(@Res() res: Response): void {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.redirect(301, this.assets.url('favicon.svg'));
  }
}
