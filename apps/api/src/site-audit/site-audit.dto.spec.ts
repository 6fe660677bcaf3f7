import { crawlableUrlProblem } from './site-audit.dto';

describe('crawlable URL rule', () => {
  it.each([
    ['https://example.com/', null],
    ['http://example.com:8080/a?b=c', null],
    ['ftp://example.com/', 'http'],
    ['example.com', 'absolute'],
    ['http:example.com', 'http'],
    ['https://user@example.com/', 'user name or password'],
    ['https://:pw@example.com/', 'user name or password'],
    ['', 'non-empty'],
  ])('%s', (url, problem) => {
    const result = crawlableUrlProblem(url);
    if (problem === null) expect(result).toBeNull();
    else expect(result).toContain(problem);
  });
});
