import { Injectable } from '@nestjs/common';
import { AuditReport, AuditReportRepository } from './audit-report.repository';
import { isAuditId } from './ids';

/** A stored audit with its pages, for the HTML report (rendered by the API's report view). */
@Injectable()
export class AuditReportService {
  constructor(private readonly audits: AuditReportRepository) {}

  /** The audit and its pages, or null when there is no such audit (a malformed id is not looked up). */
  async find(auditId: string): Promise<AuditReport | null> {
    if (!isAuditId(auditId)) return null;
    return this.audits.findReport(auditId);
  }
}
