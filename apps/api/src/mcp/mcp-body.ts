import type { NextFunction, Request, Response } from 'express';

/** Marks a /mcp request whose JSON body could not be parsed (answered -32700 by the controller). */
export const MCP_BODY_NOT_JSON = Symbol('mcp-body-not-json');

const MCP_PATH = /^\/mcp\/?$/i;

/**
 * Error middleware placed right after the body parser: a /mcp body that is not JSON is the
 * caller's JSON-RPC parse error (-32700), not a REST error. The request goes on to the
 * controller marked, so the checks that come first there (Origin, protocol revision,
 * bearer) still come first; the controller then answers the parse error. Every other error
 * and every other path is left to the exception filter.
 */
export function mcpBodyParseErrors() {
  return (err: unknown, req: Request, _res: Response, next: NextFunction): void => {
    const type = (err as { type?: unknown } | null)?.type;
    if (type === 'entity.parse.failed' && MCP_PATH.test(req.path)) {
      (req as Request & { [MCP_BODY_NOT_JSON]?: boolean })[MCP_BODY_NOT_JSON] = true;
      req.body = undefined;
      return next();
    }
    next(err);
  };
}

export function bodyWasNotJson(req: Request): boolean {
  return (req as Request & { [MCP_BODY_NOT_JSON]?: boolean })[MCP_BODY_NOT_JSON] === true;
}
