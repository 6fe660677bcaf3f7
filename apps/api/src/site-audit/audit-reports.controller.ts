import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@app/gateway';
import { AuditReportService, renderNotFound } from '@app/site-audit';

/** No scripts, no outside resources, no framing; inline styles only. */
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

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
    res.type('text/html; charset=utf-8');
    const html = await this.reports.render(auditId);
    if (html === null) {
      res.status(404).setHeader('Cache-Control', 'no-store');
      res.send(renderNotFound());
      return;
    }
    // A stored audit never changes.
    res.status(200).setHeader('Cache-Control', 'private, max-age=3600');
    res.send(html);
  }
}
