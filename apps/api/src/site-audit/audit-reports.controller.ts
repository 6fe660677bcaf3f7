import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@app/gateway';
import { AuditReportService } from '@app/site-audit';
import { renderPage } from '../pages/page-response';
import { REPORT_NOT_FOUND_PAGE, REPORT_PAGE, reportNotFoundPage, reportPage } from './report.view';
import { reportPagesCsv, reportPagesJson } from './report-downloads';

/** No scripts, no outside resources, no framing; this origin's stylesheets only. */
const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * HTML audit reports at /reports/audits/:audit_id (outside /api/v1, no API key: the
 * unguessable audit id is the capability; report_url of a complete job points here), and
 * their page lists as files: /reports/audits/:audit_id/pages.json and pages.csv.
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

  @Get('audits/:audit_id/pages.:format')
  async pages(
    @Param('audit_id') auditId: string,
    @Param('format') format: string,
    @Res() res: Response,
  ): Promise<void> {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Robots-Tag', 'noindex, nofollow');
    res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    const report = format === 'json' || format === 'csv' ? await this.reports.find(auditId) : null;
    if (report === null) {
      res.setHeader('Cache-Control', 'no-store');
      res.status(404).type('text/plain; charset=utf-8').send('Not found');
      return;
    }
    res.setHeader('Cache-Control', 'private, max-age=3600');
    const name = `site-audit-${report.audit.id}-pages.${format}`;
    res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
    if (format === 'json') {
      res
        .status(200)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(reportPagesJson(report)));
    } else {
      res.status(200).type('text/csv; charset=utf-8').send(reportPagesCsv(report));
    }
  }
}
