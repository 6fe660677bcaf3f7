/** The scopes of the hosted MCP resource (BASE/mcp): shared by the /mcp endpoint's 401 and the OAuth server. */
export const MCP_SCOPES = ['seo:read'] as const;
