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
    const csv = reportPagesCsv(report).split('\r\n');
    expect(csv[0]).toBe(
      'url,final_url,status,depth,title,meta_description,h1_count,word_count,response_ms,bytes,canonical,noindex,indexable,issues',
    );
    expect(csv[1]).toContain(",404,0,'=cmd|calc,");
    expect(csv[1].endsWith(',false,false,http_4xx')).toBe(true);
    expect(csv[2]).toBe('');
  });
});
