import type { AuditReport } from '@app/site-audit';
import { httpLink } from '../pages/links';
import { PageAssets } from '../pages/page-assets';
import { PageViews } from '../pages/page-views';
import { auditReport } from './report.fixture';
import { REPORT_PAGE, reportPage } from './report.view';

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
    expect(reportPage(r).rules.map((x) => x.rule)).toEqual(['c', 'b', 'a']);
  });
});
