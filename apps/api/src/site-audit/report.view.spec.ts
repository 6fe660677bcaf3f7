import type { AuditReport } from '@app/site-audit';
import { httpLink } from '../pages/links';
import { PageAssets } from '../pages/page-assets';
import { PageViews } from '../pages/page-views';
import { auditReport } from './report.fixture';
import { REPORT_PAGE, reportPage } from './report.view';
import { geoChecks } from '@app/crawler';
import { geoCheckFix, geoCheckTitle } from './rule-advice';

const hostile = '<script>alert("x")</script>';

const report = (): AuditReport =>
  auditReport(
    {
      domain: `evil${hostile}.test`,
      ruleSummary: [
        {
          rule: 'missing_h1',
          severity: 'critical',
          title: `Missing H1 ${hostile}`,
          count: 1,
          urls: ['javascript:alert(1)'],
        },
      ],
      geoChecks: [{ check: 'llms_txt', passed: false, weight: 10, detail: hostile }],
    },
    {
      url: 'http://127.0.0.1:8080/?q="><img src=x onerror=alert(1)>',
      title: hostile,
      metaDescription: `<img src=x onerror=alert(1)>`,
      h1Count: 0,
      issues: [
        {
          rule: 'missing_h1',
          severity: 'critical',
          url: 'http://127.0.0.1:8080/',
          detail: hostile,
        },
      ],
    },
  );

const views = new PageViews(new PageAssets());
const renderAuditReport = (r: AuditReport): string => views.render(REPORT_PAGE, reportPage(r));

describe('audit report page', () => {
  it('escapes everything that came from the crawled site (no markup injection)', () => {
    const html = renderAuditReport(report());
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('onerror=alert(1)>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });

  it('links only http(s) URLs', () => {
    expect(httpLink('javascript:alert(1)')).toEqual({ href: null, text: 'javascript:alert(1)' });
    expect(httpLink('https://example.com/a?b="c"').href).toBe('https://example.com/a?b=%22c%22');
    const html = renderAuditReport(report());
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('<span class="url">javascript:alert(1)</span>');
  });

  it('is readable on a phone: viewport meta, its stylesheets, scores shown', () => {
    const html = renderAuditReport(report());
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/report\.[0-9a-f]{12}\.css">/);
    expect(html).not.toContain('<style');
    expect(html).toContain('72.5');
    expect(html).toContain('Issues by rule');
  });

  it('sorts rules by severity, then by count', () => {
    const r = report();
    r.audit.ruleSummary = [
      { rule: 'a', severity: 'notice', title: 'A', count: 9, urls: [] },
      { rule: 'b', severity: 'critical', title: 'B', count: 1, urls: [] },
      { rule: 'c', severity: 'critical', title: 'C', count: 5, urls: [] },
    ];
    expect(reportPage(r).rules.map((x) => x.title)).toEqual(['C', 'B', 'A']);
  });

  it('names rules readably with a fix hint; raw rule ids are not shown', () => {
    const html = renderAuditReport(report());
    expect(html).toContain('Missing &lt;h1&gt;');
    expect(html).toContain('How to fix:</strong> Add one &lt;h1&gt;');
    expect(html).not.toContain('missing_h1');
  });

  it.each([
    [{ status: 200 }, { yes: true, why: null }],
    [{ status: 404 }, { yes: false, why: 'HTTP 404' }],
    [{ status: 503 }, { yes: false, why: 'HTTP 503' }],
    [{ status: null }, { yes: false, why: 'no response' }],
    [
      { status: 200, noindex: true },
      { yes: false, why: 'noindex' },
    ],
    [
      { status: 200, canonical: 'http://127.0.0.1:8080/other' },
      { yes: false, why: 'canonical points to another URL' },
    ],
    [
      { status: 200, canonical: 'http://127.0.0.1:8080/#top' },
      { yes: true, why: null },
    ],
  ])('indexability of %j: %j', (page, expected) => {
    const r = auditReport({}, page);
    expect(reportPage(r).pages[0].indexable).toEqual(expected);
  });

  it('a 404 page reads "Indexable: no (HTTP 404)"; the page list downloads are linked', () => {
    const html = renderAuditReport(auditReport({}, { status: 404 }));
    expect(html).toContain('Indexable: <span class="bad">no (HTTP 404)</span>');
    expect(html).toContain('href="/reports/audits/aud_AAAAAAAAAAAAAAAAAAAAAA/pages.csv"');
    expect(html).toContain('href="/reports/audits/aud_AAAAAAAAAAAAAAAAAAAAAA/pages.json"');
  });

  it('names every GEO check in words with a fix hint, shown when it failed', () => {
    const checks = geoChecks({
      startUrl: 'https://example.test/',
      robots: null,
      llmsTxt: { present: false, detail: 'no /llms.txt' },
      records: [],
    });
    expect(checks.length).toBeGreaterThanOrEqual(8);
    for (const { check } of checks) {
      expect(geoCheckTitle(check)).not.toContain('_');
      expect(geoCheckFix(check)).toEqual(expect.any(String));
    }
    const html = renderAuditReport(
      auditReport({
        geoChecks: [
          { check: 'question_headings_or_faq', passed: false, weight: 10, detail: '0/3 pages' },
          { check: 'llms_txt', passed: true, weight: 10, detail: 'found' },
        ],
      }),
    );
    expect(html).toContain('<strong>Questions and FAQ</strong>');
    expect(html).toContain(geoCheckFix('question_headings_or_faq')!);
    expect(html).not.toContain(geoCheckFix('llms_txt')!);
    expect(html).not.toContain('question_headings_or_faq');
    // An id the page does not know yet is still shown in words.
    expect(geoCheckTitle('new_check_id')).toBe('New check id');
  });
});
