/**
 * The dimensions and sorts of GET /api/v1/gsc/queries, defined once for the API (validation,
 * OpenAPI, SQL whitelist) and the MCP connector (tool schemas). Plain data: no Nest, no I/O.
 */
export const GSC_DIMENSIONS = [
  'query',
  'page',
  'country',
  'device',
  'date',
  'searchAppearance',
] as const;
export type GscDimension = (typeof GSC_DIMENSIONS)[number];

export const GSC_SORTS = ['clicks', 'impressions', 'ctr', 'position', 'key'] as const;
export type GscSort = (typeof GSC_SORTS)[number];
