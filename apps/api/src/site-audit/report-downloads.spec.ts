import { auditReport } from './report.fixture';
import { csvCell, reportPagesCsv, reportPagesJson } from './report-downloads';

describe('audit report downloads', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=HYPERLINK("http://evil","x")', `"'=HYPERLINK(""http://evil"",""x"")"`],
    ['+1', "'+1"],
    ['-cmd', "'-cmd"],
    ['@SUM(A1)', "'@SUM(A1)"],
    [null, ''],
    [404, '404'],
    [-3, '-3'],
    [true, 'true'],
  ])('csv cell %j → %s', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('the page list as JSON and CSV: the same pages, indexability included', () => {
    const report = auditReport(
      {},
      {
        status: 404,
        title: '=cmd|calc',
        issues: [{ rule: 'http_4xx', severity: 'critical', url: 'x' }],
      },
    );
    const json = reportPagesJson(report);
    expect(json.pages).toHaveLength(1);
    expect(json.pages[0]).toMatchObject({ status: 404, indexable: false, title: '=cmd|calc' });
    const text = reportPagesCsv(report);
    expect(text.startsWith('\uFEFFurl,')).toBe(true);
    const csv = text.slice(1).split('\r\n');
    expect(csv[0]).toBe(
      'url,final_url,status,depth,title,meta_description,h1_count,word_count,response_ms,bytes,canonical,noindex,indexable,issues',
    );
    expect(csv[1]).toContain(",404,0,'=cmd|calc,");
    expect(csv[1].endsWith(',false,false,http_4xx')).toBe(true);
    expect(csv[2]).toBe('');
  });

  it('CSV issues keep their detail, one line per issue, quoted; non-ASCII titles as UTF-8', () => {
    const report = auditReport(
      {},
      {
        title: 'Café “Zürich” – 東京',
        issues: [
          {
            rule: 'broken_internal_link',
            severity: 'critical',
            url: 'x',
            detail: 'https://example.test/gone, "old" (404)',
          },
          { rule: 'missing_h1', severity: 'warning', url: 'x' },
          { rule: 'thin_content', severity: 'notice', url: 'x', detail: '=HYPERLINK("x")' },
        ],
      },
    );
    const text = reportPagesCsv(report);
    expect(Buffer.from(text, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(text).toContain(',Café “Zürich” – 東京,');
    expect(text).toContain(
      '"broken_internal_link: https://example.test/gone, ""old"" (404)\nmissing_h1\nthin_content: =HYPERLINK(""x"")"\r\n',
    );
  });
});
