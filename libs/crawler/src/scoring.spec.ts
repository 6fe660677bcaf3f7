import { issue } from './audit-rules';
import { geoScore, isQuestionHeading, issueCounts, ruleSummary, totalScore } from './scoring';
import type { PageFinding } from './types';

const finding = (url: string, issues: PageFinding['issues']): PageFinding => ({
  url,
  finalUrl: url,
  status: 200,
  depth: 0,
  title: 't',
  metaDescription: 'd',
  h1Count: 1,
  wordCount: 300,
  responseMs: 5,
  bytes: 100,
  canonical: url,
  noindex: false,
  issues,
});

describe('total_score formula', () => {
  it('is the mean page score (100 − 20·critical − 6·warning − 1.5·notice, floored at 0)', () => {
    const pages = [
      finding('a', []),
      finding('b', [issue('http_4xx', 'b')]),
      finding('c', [issue('missing_h1', 'c'), issue('multiple_h1', 'c')]),
      finding(
        'd',
        Array.from({ length: 6 }, () => issue('broken_internal_link', 'd')),
      ), // 120 → floored at 0
    ];
    expect((100 + 80 + 92.5 + 0) / 4).toBe(68.125);
    expect(totalScore(pages, [])).toBe(68.1); // one decimal
  });

  it('subtracts site-level critical/warning penalties (10/3 each, capped at 40); notices are free', () => {
    const pages = [finding('a', [])];
    expect(totalScore(pages, [issue('blocked_by_robots', 'x'), issue('crawl_trap', 'y')])).toBe(
      100,
    );
    expect(totalScore(pages, [issue('robots_txt_unreachable', 'r')])).toBe(90);
    expect(
      totalScore(
        pages,
        Array.from({ length: 9 }, () => issue('robots_txt_unreachable', 'r')),
      ),
    ).toBe(60);
  });

  it('is 0 when nothing was crawled and rounds to one decimal', () => {
    expect(totalScore([], [])).toBe(0);
    expect(
      totalScore([finding('a', []), finding('b', []), finding('c', [issue('noindex', 'c')])], []),
    ).toBe(99.5);
  });
});

describe('issue counts and rule summary', () => {
  it('counts by severity and orders the summary by severity, then count', () => {
    const issues = [
      issue('noindex', 'a'),
      issue('noindex', 'b'),
      issue('missing_h1', 'a'),
      issue('http_5xx', 'c'),
      issue('noindex', 'a'),
    ];
    expect(issueCounts(issues)).toEqual({ critical: 1, warning: 1, notice: 3, total: 5 });
    expect(ruleSummary(issues)).toEqual([
      {
        rule: 'http_5xx',
        severity: 'critical',
        title: 'Server error (5xx)',
        count: 1,
        urls: ['c'],
      },
      { rule: 'missing_h1', severity: 'warning', title: 'Missing <h1>', count: 1, urls: ['a'] },
      { rule: 'noindex', severity: 'notice', title: 'Page is noindex', count: 3, urls: ['a', 'b'] },
    ]);
  });
});

describe('geo_score', () => {
  it('is Σ weight × score of the checks (weights sum to 100)', () => {
    expect(
      geoScore([
        { check: 'a', weight: 60, passed: true, score: 1 },
        { check: 'b', weight: 40, passed: false, score: 0.25 },
      ]),
    ).toBe(70);
    expect(geoScore([{ check: 'a', weight: 100, passed: true }])).toBe(100);
  });

  it.each([
    ['What is an SEO audit?', true],
    ['How long does a crawl take', true],
    ['Pricing?', true],
    ['Why', true],
    ['Whatever happened', false],
    ['Our team', false],
  ])('question heading %s → %s', (text, q) => {
    expect(isQuestionHeading(text)).toBe(q);
  });
});
