import { Injectable } from '@nestjs/common';
import { AuditReport, AuditsRepository } from './audits.repository';
import { isAuditId } from './ids';

/** A stored audit with its pages, for the HTML report (rendered by the API's report view). */
@Injectable()
export class AuditReportService {
  constructor(private readonly audits: AuditsRepository) {}

  /** The audit and its pages, or null when there is no such audit (a malformed id is not looked up). */
  async find(auditId: string): Promise<AuditReport | null> {
    if (!isAuditId(auditId)) return null;
    return this.audits.findReport(auditId);
  }
}
