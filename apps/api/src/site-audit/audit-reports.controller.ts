import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@app/gateway';
import { AuditReportService } from '@app/site-audit';
import { renderPage } from '../pages/page-http';
import { REPORT_NOT_FOUND_PAGE, REPORT_PAGE, reportNotFoundPage, reportPage } from './report.view';

/** No scripts, no outside resources, no framing; this origin's stylesheets only. */
const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * HTML audit reports at /reports/audits/:audit_id (outside /api/v1, no API key: the
 * unguessable audit id is the capability; report_url of a complete job points here).
 */
@ApiExcludeController()
@Public()
@Controller('reports')
export class AuditReportsController {
  constructor(private readonly reports: AuditReportService) {}

  @Get('audits/:audit_id')
  async audit(@Param('audit_id') auditId: string, @Res() res: Response): Promise<void> {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Robots-Tag', 'noindex, nofollow');
    const report = await this.reports.find(auditId);
    if (report === null) {
      res.setHeader('Cache-Control', 'no-store');
      await renderPage(res, 404, REPORT_NOT_FOUND_PAGE, reportNotFoundPage());
      return;
    }
    // A stored audit never changes.
    res.setHeader('Cache-Control', 'private, max-age=3600');
    await renderPage(res, 200, REPORT_PAGE, reportPage(report));
  }
}
