import { EXAMPLE_META, exampleOf, shapeDifferences, shapeOf } from './openapi-examples';

describe('recorded success examples: how an answer becomes an example and how shapes compare', () => {
  it('fixes the request id and time and keeps the first three items of each list', () => {
    const answer = {
      success: true,
      data: { rows: [1, 2, 3, 4, 5], nested: { list: [{ a: [1, 2, 3, 4] }] }, count: 5 },
      meta: { timestamp: '2026-01-01T00:00:00Z', request_id: 'req_abc', limit: 5 },
    };
    expect(exampleOf(answer)).toEqual({
      success: true,
      data: { rows: [1, 2, 3], nested: { list: [{ a: [1, 2, 3] }] }, count: 5 },
      meta: { ...EXAMPLE_META, limit: 5 },
    });
    expect(answer.meta.request_id).toBe('req_abc'); // the answer itself is left alone
  });

  it('finds a missing member, a changed type and a list that became an object', () => {
    const a = shapeOf({ data: { id: 1, rows: [{ k: 'x' }], when: null } });
    expect(shapeDifferences(a, shapeOf({ data: { id: 2, rows: [], when: 'today' } }))).toEqual([]);
    expect(shapeDifferences(a, shapeOf({ data: { id: '2', rows: [{ k: 'y' }] } }))).toEqual([
      'data.id: number vs string',
      'data.when: missing from the second',
    ]);
    expect(shapeDifferences(a, shapeOf({ data: { id: 1, rows: { k: 'x' }, when: 1 } }))).toEqual([
      'data.rows: array vs object',
    ]);
    expect(
      shapeDifferences(a, shapeOf({ data: { id: 1, rows: [{ k: 'x', n: 1 }], when: 1 } })),
    ).toEqual(['data.rows[].n: missing from the first']);
  });
});
