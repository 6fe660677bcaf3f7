/**
 * The scopes our authorization server issues: those of its one resource, the hosted MCP
 * endpoint (BASE/mcp). Owned here; the /mcp endpoint's 401 challenge names them too.
 */
export const MCP_SCOPES = ['seo:read'] as const;
