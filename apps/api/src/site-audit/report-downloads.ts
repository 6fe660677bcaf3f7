import type { AuditReport } from '@app/site-audit';
import { indexability } from './report.view';

/** One page of the downloadable page list (JSON; the CSV has the same columns). */
interface ReportPageRow {
  url: string;
  final_url: string;
  status: number | null;
  depth: number;
  title: string | null;
  meta_description: string | null;
  h1_count: number;
  word_count: number;
  response_ms: number;
  bytes: number;
  canonical: string | null;
  noindex: boolean;
  indexable: boolean;
  issues: Array<{ rule: string; severity: string; detail: string | null }>;
}

/** The page list of an audit report, as `GET /reports/audits/:id/pages.json` answers it. */
export function reportPagesJson({ audit, pages }: AuditReport): {
  audit_id: string;
  domain: string;
  pages: ReportPageRow[];
} {
  return {
    audit_id: audit.id,
    domain: audit.domain,
    pages: pages.map((p) => ({
      url: p.url,
      final_url: p.finalUrl,
      status: p.status,
      depth: p.depth,
      title: p.title,
      meta_description: p.metaDescription,
      h1_count: p.h1Count,
      word_count: p.wordCount,
      response_ms: p.responseMs,
      bytes: p.bytes,
      canonical: p.canonical,
      noindex: p.noindex,
      indexable: indexability(p).yes,
      issues: (p.issues ?? []).map((i) => ({
        rule: i.rule,
        severity: i.severity,
        detail: i.detail ?? null,
      })),
    })),
  };
}

const CSV_COLUMNS: Array<keyof ReportPageRow> = [
  'url',
  'final_url',
  'status',
  'depth',
  'title',
  'meta_description',
  'h1_count',
  'word_count',
  'response_ms',
  'bytes',
  'canonical',
  'noindex',
  'indexable',
  'issues',
];

/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, comma or line break. Text from the
 * crawled site that a spreadsheet would run as a formula (starting with = + - @, a tab or a
 * carriage return) is prefixed with an apostrophe, so opening the file runs nothing.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A page's issues in one cell: one line per issue, `rule: detail` (which link, which resource). */
function issuesCell(issues: ReportPageRow['issues']): string {
  return issues.map((i) => (i.detail ? `${i.rule}: ${i.detail}` : i.rule)).join('\n');
}

/** The UTF-8 byte-order mark: without it Excel reads the file as ANSI and garbles non-ASCII titles. */
const UTF8_BOM = '\uFEFF';

/**
 * The page list as CSV (UTF-8 with a byte-order mark, CRLF rows): a header row, then one row
 * per page; the issues cell holds one line per issue with its detail.
 */
export function reportPagesCsv(report: AuditReport): string {
  const rows = reportPagesJson(report).pages.map((p) =>
    CSV_COLUMNS.map((c) => csvCell(c === 'issues' ? issuesCell(p.issues) : p[c])).join(','),
  );
  return UTF8_BOM + [CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}
