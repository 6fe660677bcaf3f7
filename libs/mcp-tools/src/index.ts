/** The MCP tools of the API, shared by the local stdio package (apps/mcp) and the hosted /mcp endpoint. No Nest here. */
export * from './backend';
export * from './fields';
export * from './invalid-params';
export * from './job-poller';
export * from './server';
export * from './tool-result';
export { WRITE_SCOPE } from './tools/tool-context';
