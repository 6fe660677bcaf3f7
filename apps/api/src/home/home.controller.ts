import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@app/gateway';
import { Readiness } from '../health/readiness';
import { PageAssets } from '../pages/page-assets';
import { pageHeaders, renderPage } from '../pages/page-response';
import { HOME_PAGE, homePage } from './home.view';

const ROBOTS_TXT = [
  '# The landing page and the API reference may be indexed; nothing private or per-account.',
  'User-agent: *',
  ...[
    '/account',
    '/admin',
    '/oauth',
    '/authorize',
    '/token',
    '/register',
    '/revoke',
    '/reports',
    '/api',
    '/mcp',
    '/metrics',
  ].map((path) => `Disallow: ${path}`),
  'Allow: /$',
  'Allow: /docs',
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

  /**
   * Keeps well-behaved crawlers out of everything private or per-account: the account area
   * and sign-in, OAuth and consent, the admin and operator pages, the site-audit reports (their
   * unguessable links get shared), the API itself and the protocol endpoint. Pages also answer
   * `X-Robots-Tag: noindex`, since robots.txt is only advice. The landing page and the API
   * reference may be indexed.
   */
  @Get('robots.txt')
  robots(@Res() res: Response): void {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('text/plain; charset=utf-8').send(ROBOTS_TXT);
  }

  /** Where browsers look for an icon by default: the pages' favicon (an SVG, cached for long). */
  @Get('favicon.ico')
  favicon(@Res() res: Response): void {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.redirect(301, this.assets.url('favicon.svg'));
  }
}
