import { Injectable } from '@nestjs/common';
import { AuditsRepository } from './audits.repository';
import { isAuditId } from './ids';
import { renderAuditReport } from './report-page';

/** The HTML report page of a stored audit. */
@Injectable()
export class AuditReportService {
  constructor(private readonly audits: AuditsRepository) {}

  /** The report page, or null when there is no such audit (a malformed id is not looked up). */
  async render(auditId: string): Promise<string | null> {
    if (!isAuditId(auditId)) return null;
    const report = await this.audits.findReport(auditId);
    return report ? renderAuditReport(report) : null;
  }
}
