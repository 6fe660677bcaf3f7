import { WRITE_SCOPE } from '@app/mcp-tools';

export { WRITE_SCOPE };

/** Reads the account's data and runs the research and audit tools. */
export const READ_SCOPE = 'seo:read';

/**
 * The scopes our authorization server issues: those of its one resource, the hosted MCP
 * endpoint (BASE/mcp). Owned here; the /mcp endpoint's 401 challenge names them too.
 * `seo:write` (the tool library's WRITE_SCOPE) lets the write tools change rank tracking.
 */
export const MCP_SCOPES = [READ_SCOPE, WRITE_SCOPE] as const;
