import { endpointName, reachesThreshold } from './usage-line';

describe('usage history line', () => {
  it.each([
    ['GET', '/api/v1/usage', 'GET /usage'],
    ['GET', '/api/v1/jobs/:job_id', 'GET /jobs/{job_id}'],
    ['POST', '/api/v1/keyword-research', 'POST /keyword-research'],
    ['GET', '/api/v1/rank/keywords', 'GET /rank/keywords'],
    ['GET', '/mcp', 'GET /mcp'],
    ['GET', undefined, 'GET ?'],
  ])('%s %s is named %j, as the spec writes it', (method, route, name) => {
    expect(endpointName(method, route)).toBe(name);
    expect(endpointName(method, route)).toBe(name); // cached
  });

  it.each([
    [[80, 100], 79, 100, false],
    [[80, 100], 80, 100, true],
    [[80, 100], 150, 100, true],
    [[50], 4, 9, false], // 44 %
    [[50], 5, 9, true], // 55 %: the first call at or past half of 9
    [[1], 9, 1000, false],
    [[1], 10, 1000, true],
    [[], 10, 10, false],
  ])('thresholds %j, %i of %i: %s', (thresholds, used, limit, reached) => {
    expect(reachesThreshold(thresholds, used, limit)).toBe(reached);
  });
});
