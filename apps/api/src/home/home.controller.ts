import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@app/gateway';
import { Readiness } from '../health/readiness';
import { PageAssets } from '../pages/page-assets';
import { pageHeaders, renderPage } from '../pages/page-response';
import { HOME_PAGE, homePage } from './home.view';

/**
 * GET /robots.txt: crawlers may read the home page and the API reference (/docs), nothing
 * else: not the account area (/account, its sign-in and Search Console pages), the operator
 * pages (/admin), the OAuth pages and endpoints (/oauth/authorize, /authorize, /register,
 * /token, /revoke), site-audit reports (/reports/: their unguessable URL is their only
 * access control), the API, the MCP endpoint or the metrics. Pages there also send
 * `X-Robots-Tag: noindex, nofollow`: robots.txt keeps crawlers out, the header keeps a
 * linked URL out of the index.
 */
export const ROBOTS_TXT = [
  'User-agent: *',
  'Disallow: /account',
  'Disallow: /admin',
  'Disallow: /oauth/',
  'Disallow: /authorize',
  'Disallow: /register',
  'Disallow: /token',
  'Disallow: /revoke',
  'Disallow: /reports/',
  'Disallow: /api/',
  'Disallow: /mcp',
  'Disallow: /metrics',
  'Allow: /',
  '',
].join('\n');

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

  @Get('robots.txt')
  robots(@Res() res: Response): void {
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.status(200).send(ROBOTS_TXT);
  }

  /** Where browsers look for an icon by default: the pages' favicon (an SVG, cached for long). */
  @Get('favicon.ico')
  favicon(@Res() res: Response): void {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.redirect(301, this.assets.url('favicon.svg'));
  }
}
