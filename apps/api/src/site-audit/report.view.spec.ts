import type { AuditReport } from './audits.repository';
import { escapeHtml, renderAuditReport, safeLink } from './report-page';

const hostile = '<script>alert("x")</script>';

function report(): AuditReport {
  return {
    audit: {
      id: 'aud_AAAAAAAAAAAAAAAAAAAAAA',
      jobId: 'job_AAAAAAAAAAAAAAAAAAAAAA',
      accountId: 1,
      startUrl: 'http://127.0.0.1:8080/',
      domain: `evil${hostile}.test`,
      maxPages: 10,
      maxDepth: 3,
      pagesCrawled: 1,
      totalScore: 72.456,
      geoScore: 40,
      issuesCritical: 1,
      issuesWarning: 0,
      issuesNotice: 0,
      issuesTotal: 1,
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
      truncated: false,
      truncatedReason: null,
      startedAt: new Date('2026-11-21T10:00:00Z'),
      finishedAt: new Date('2026-11-21T10:01:00Z'),
      createdAt: new Date('2026-11-21T10:01:00Z'),
    },
    pages: [
      {
        auditId: 'aud_AAAAAAAAAAAAAAAAAAAAAA',
        position: 0,
        url: 'http://127.0.0.1:8080/?q="><img src=x onerror=alert(1)>',
        finalUrl: 'http://127.0.0.1:8080/',
        status: 200,
        depth: 0,
        title: hostile,
        metaDescription: `<img src=x onerror=alert(1)>`,
        h1Count: 0,
        wordCount: 12,
        responseMs: 5,
        bytes: 300,
        canonical: null,
        noindex: false,
        issues: [
          {
            rule: 'missing_h1',
            severity: 'critical',
            url: 'http://127.0.0.1:8080/',
            detail: hostile,
          },
        ],
      },
    ],
  };
}

describe('audit report page', () => {
  it('escapes everything that came from the crawled site (no markup injection)', () => {
    const html = renderAuditReport(report());
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('onerror=alert(1)>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });

  it('links only http(s) URLs', () => {
    expect(safeLink('javascript:alert(1)')).toBe('<span class="url">javascript:alert(1)</span>');
    expect(safeLink('https://example.com/a?b="c"')).toContain(
      'href="https://example.com/a?b=%22c%22"',
    );
    const html = renderAuditReport(report());
    expect(html).not.toContain('href="javascript:');
  });

  it('is readable on a phone: viewport meta and scores shown', () => {
    const html = renderAuditReport(report());
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('72.5');
    expect(html).toContain('Issues by rule');
  });

  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});
