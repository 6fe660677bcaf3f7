import { recordTimestamp } from '@app/core';
import type { AuditPageEntity } from '@app/database';
import type { AuditReport } from './audits.repository';

/**
 * Server-rendered HTML of an audit report. Everything that came from a crawled site (URLs,
 * titles, descriptions, details) is escaped; the page has no scripts, and its CSP forbids them.
 */
export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A link only for http(s) URLs (never javascript:, data:, ...); other values are plain text. */
export function safeLink(url: string): string {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return `<span class="url">${escapeHtml(url)}</span>`;
  }
  return `<a class="url" href="${escapeHtml(parsed.href)}" rel="nofollow noopener noreferrer">${escapeHtml(url)}</a>`;
}

const SEVERITY_ORDER: Record<string, number> = { critical: 0, warning: 1, notice: 2 };

function sev(severity: string): string {
  const known = severity in SEVERITY_ORDER ? severity : 'notice';
  return `<span class="sev sev-${known}">${escapeHtml(severity)}</span>`;
}

function score(n: number): string {
  return escapeHtml(Number.isInteger(n) ? String(n) : n.toFixed(1));
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d232a;background:#f5f6f8}
main{max-width:960px;margin:0 auto;padding:16px}h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.muted{color:#5b6570;font-size:.9rem}.url{word-break:break-all}a{color:#0b5cad}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:8px}
.card{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:12px}
.card .v{display:block;font-size:1.6rem;font-weight:700}.card .l{font-size:.85rem;color:#5b6570}
.sev{display:inline-block;font-size:.75rem;font-weight:600;padding:1px 6px;border-radius:4px;text-transform:uppercase}
.sev-critical{background:#fde2e1;color:#9b1c13}.sev-warning{background:#fff1cc;color:#7a5300}.sev-notice{background:#e3ecfb;color:#1f4b8f}
details{background:#fff;border:1px solid #dde1e6;border-radius:8px;margin:6px 0;padding:8px 12px}
summary{cursor:pointer}ul{margin:.4rem 0;padding-left:1.2rem}li{margin:.15rem 0}
.page{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:12px;margin:8px 0}
.facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(120px,1fr));gap:4px 12px;font-size:.9rem;margin:.4rem 0}
.ok{color:#1a7f37}.bad{color:#9b1c13}
table{border-collapse:collapse;width:100%;background:#fff}td,th{border:1px solid #dde1e6;padding:6px;text-align:left;font-size:.9rem}
.scroll{overflow-x:auto}
`;

function pageCard(p: AuditPageEntity): string {
  const issues = (p.issues ?? [])
    .slice()
    .sort((a, b) => (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3))
    .map(
      (i) =>
        `<li>${sev(i.severity)} ${escapeHtml(i.rule)}${i.detail ? `: ${escapeHtml(i.detail)}` : ''}</li>`,
    )
    .join('');
  const redirected =
    p.finalUrl && p.finalUrl !== p.url ? `<div class="muted">→ ${safeLink(p.finalUrl)}</div>` : '';
  return `<div class="page">
<div>${safeLink(p.url)}</div>${redirected}
<div><strong>${p.title ? escapeHtml(p.title) : '<span class="muted">(no title)</span>'}</strong></div>
${p.metaDescription ? `<div class="muted">${escapeHtml(p.metaDescription)}</div>` : ''}
<div class="facts">
<span>Status: ${p.status === null ? 'no response' : escapeHtml(p.status)}</span><span>Depth: ${escapeHtml(p.depth)}</span>
<span>H1: ${escapeHtml(p.h1Count)}</span><span>Words: ${escapeHtml(p.wordCount)}</span>
<span>Response: ${escapeHtml(p.responseMs)} ms</span><span>Size: ${escapeHtml(p.bytes)} B</span>
<span>Indexable: ${p.noindex ? '<span class="bad">no (noindex)</span>' : '<span class="ok">yes</span>'}</span>
</div>
${p.canonical ? `<div class="muted">Canonical: ${safeLink(p.canonical)}</div>` : ''}
${issues ? `<ul>${issues}</ul>` : '<div class="muted ok">No issues</div>'}
</div>`;
}

export function renderAuditReport(report: AuditReport): string {
  const a = report.audit;
  const rules = (a.ruleSummary ?? [])
    .slice()
    .sort(
      (x, y) =>
        (SEVERITY_ORDER[x.severity] ?? 3) - (SEVERITY_ORDER[y.severity] ?? 3) || y.count - x.count,
    )
    .map(
      (
        r,
      ) => `<details><summary>${sev(r.severity)} ${escapeHtml(r.title || r.rule)} <span class="muted">(${escapeHtml(
        r.count,
      )})</span></summary>
<div class="muted">${escapeHtml(r.rule)}</div><ul>${(r.urls ?? []).map((u) => `<li>${safeLink(u)}</li>`).join('')}</ul></details>`,
    )
    .join('\n');
  const geo = (a.geoChecks ?? [])
    .map(
      (c) =>
        `<tr><td>${escapeHtml(c.check)}</td><td class="${c.passed ? 'ok' : 'bad'}">${c.passed ? 'passed' : 'failed'}</td>` +
        `<td>${escapeHtml(c.weight)}</td><td>${escapeHtml(c.detail ?? '')}</td></tr>`,
    )
    .join('');
  const truncated = a.truncated
    ? `<p class="muted">The crawl stopped early (${escapeHtml(
        a.truncatedReason === 'time_limit' ? 'time limit reached' : 'page limit reached',
      )}); results cover the pages crawled.</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Site audit: ${escapeHtml(a.domain)}</title>
<style>${STYLE}</style></head>
<body><main>
<h1>Site audit: ${escapeHtml(a.domain)}</h1>
<p class="muted">Start URL: ${safeLink(a.startUrl)}<br>
${escapeHtml(a.pagesCrawled)} pages crawled (limit ${escapeHtml(a.maxPages)}, depth ${escapeHtml(a.maxDepth)}) ·
finished ${escapeHtml(recordTimestamp(new Date(a.finishedAt)))} UTC</p>
${truncated}
<section class="cards">
<div class="card"><span class="v">${score(a.totalScore)}</span><span class="l">Total score</span></div>
<div class="card"><span class="v">${score(a.geoScore)}</span><span class="l">GEO score</span></div>
<div class="card"><span class="v">${escapeHtml(a.issuesCritical)}</span><span class="l">Critical issues</span></div>
<div class="card"><span class="v">${escapeHtml(a.issuesWarning)}</span><span class="l">Warnings</span></div>
<div class="card"><span class="v">${escapeHtml(a.issuesNotice)}</span><span class="l">Notices</span></div>
<div class="card"><span class="v">${escapeHtml(a.issuesTotal)}</span><span class="l">Issues in total</span></div>
</section>
<h2>Issues by rule</h2>
${rules || '<p class="muted">No issues found.</p>'}
<h2>GEO checks</h2>
${geo ? `<div class="scroll"><table><thead><tr><th>Check</th><th>Result</th><th>Weight</th><th>Detail</th></tr></thead><tbody>${geo}</tbody></table></div>` : '<p class="muted">No GEO checks.</p>'}
<h2>Pages (${escapeHtml(report.pages.length)})</h2>
${report.pages.map(pageCard).join('\n')}
</main></body></html>`;
}

export function renderNotFound(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><title>Report not found</title><style>${STYLE}</style></head>
<body><main><h1>Report not found</h1><p class="muted">This audit report does not exist. Check the link (report_url of the job).</p></main></body></html>`;
}
