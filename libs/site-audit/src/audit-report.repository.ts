import { Injectable } from '@nestjs/common';
import { AuditEntity, AuditPageEntity, Sql, SqlScope } from '@app/database';
import { safeJson } from './sanitize';

/** A stored audit with its pages in crawl order (what the report page shows). */
export interface AuditReport {
  audit: AuditEntity;
  pages: AuditPageEntity[];
}

/** Stored audits (`audits`) and their per-page findings (`audit_pages`). */
@Injectable()
export class AuditReportRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * The audit and its pages. The pages go in one statement whatever their number
   * (jsonb_to_recordset: a multi-row INSERT would run into the driver's parameter limit).
   */
  async insert(
    audit: AuditEntity,
    pages: AuditPageEntity[],
    db: SqlScope = this.sql,
  ): Promise<void> {
    await db.repository(AuditEntity).insert(audit);
    if (!pages.length) return;
    await db.run(
      `INSERT INTO audit_pages (audit_id, position, url, final_url, status, depth, title, meta_description,
         h1_count, word_count, response_ms, bytes, canonical, noindex, issues)
       SELECT p."auditId", p.position, p.url, p."finalUrl", p.status, p.depth, p.title, p."metaDescription",
         p."h1Count", p."wordCount", p."responseMs", p.bytes, p.canonical, p.noindex, p.issues
       FROM jsonb_to_recordset($1::jsonb) AS p("auditId" text, position int, url text, "finalUrl" text,
         status int, depth int, title text, "metaDescription" text, "h1Count" int, "wordCount" int,
         "responseMs" int, bytes int, canonical text, noindex boolean, issues jsonb)`,
      [safeJson(pages)],
    );
  }

  /** An audit with its pages in crawl order, or null. */
  async findReport(auditId: string): Promise<AuditReport | null> {
    const audit = await this.sql.repository(AuditEntity).findOneBy({ id: auditId });
    if (!audit) return null;
    const pages = await this.sql
      .repository(AuditPageEntity)
      .find({ where: { auditId }, order: { position: 'ASC' } });
    return { audit, pages };
  }
}
