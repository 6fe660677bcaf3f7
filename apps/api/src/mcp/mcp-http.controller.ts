import type { IncomingMessage } from 'node:http';
import { Controller, Delete, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ApiKeysService, KEY_PREFIX } from '@app/accounts';
import { hasApiAccess } from '@app/plans';
import { APP_CONFIG, AppConfig } from '@app/core';
import { ApiRequest, Public } from '@app/gateway';
import { createToolServer } from '@app/mcp-tools';
import { InFlightCalls } from './in-flight-calls';
import { InProcessBackend } from './in-process-backend';
import { bodyWasNotJson } from './mcp-body';
import { RequestHandler } from './in-process-dispatch';
import {
  ACCEPTED_PROTOCOL_VERSIONS,
  bearerToken,
  isAcceptedProtocolVersion,
  isAllowedOrigin,
  transportProtocolVersion,
  wwwAuthenticate,
} from './mcp-access';
import { McpCaller, McpTokenAuthenticator } from './mcp-token-authenticator';

/** run_site_audit defaults of the hosted tools (the local package's defaults). */
const POLL_INTERVAL_MS = 15_000;
const MAX_WAIT_MS = 50_000;

const jsonRpcError = (res: Response, status: number, message: string, code = -32000) =>
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });

/**
 * The hosted MCP connector: Streamable HTTP on POST /mcp, stateless (a new SDK server and
 * transport per request, no Mcp-Session-Id), outside the API-key pipeline (@Public): it
 * checks Origin, the protocol revision and the bearer itself, then every tool call runs its
 * REST route in process as the resolved caller (InProcessBackend), so the route's own guards
 * and services apply.
 */
@ApiExcludeController()
@Public()
@Controller('mcp')
export class McpHttpController {
  /** Tool calls in flight on this process, for notifications/cancelled (stateless endpoint). */
  private readonly inFlight = new InFlightCalls();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly keys: ApiKeysService,
    private readonly tokens: McpTokenAuthenticator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The app's Express handler (known once the HTTP adapter exists, after module init). */
  private get handler(): RequestHandler {
    return this.adapterHost.httpAdapter.getInstance<RequestHandler>();
  }

  @Post()
  async post(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const caller = await this.admit(req, res);
    if (!caller) return;

    const server = createToolServer(new InProcessBackend(this.handler, caller.auth, req.id), {
      pollIntervalMs: POLL_INTERVAL_MS,
      maxWaitMs: MAX_WAIT_MS,
      scopes: caller.scopes,
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const stop = () => {
      void transport.close();
      void server.close();
    };
    // notifications/cancelled of an earlier POST's tool call (stateless: see InFlightCalls)
    const untrack = this.inFlight.track(caller.auth, req.body, stop);
    this.inFlight.cancel(caller.auth, req.body);
    res.on('close', () => {
      untrack();
      stop();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req as unknown as IncomingMessage, res, req.body);
    } catch {
      if (!res.headersSent) jsonRpcError(res, 500, 'Internal error', -32603);
    }
  }

  /**
   * The checks of a POST before any tool runs: Origin, protocol revision, bearer, a JSON
   * body. The caller, or null once the refusal is answered.
   */
  private async admit(req: ApiRequest, res: Response): Promise<McpCaller | null> {
    if (!this.checkOrigin(req, res)) return null;
    const version = header(req, 'mcp-protocol-version');
    if (!isAcceptedProtocolVersion(version)) {
      jsonRpcError(
        res,
        400,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${ACCEPTED_PROTOCOL_VERSIONS.join(', ')})`,
      );
      return null;
    }
    const caller = await this.authenticate(req, res);
    if (!caller) return null;
    if (bodyWasNotJson(req)) {
      // The body parser could not read it (mcp-body.ts): JSON-RPC's parse error.
      jsonRpcError(res, 400, 'Parse error: the body is not valid JSON.', -32700);
      return null;
    }
    setProtocolVersion(req, transportProtocolVersion(version));
    return caller;
  }

  /** No server-to-client stream and no sessions (stateless): 405, as the transport defines. */
  @Get()
  get(@Req() req: ApiRequest, @Res() res: Response): void {
    this.methodNotAllowed(req, res);
  }

  @Delete()
  delete(@Req() req: ApiRequest, @Res() res: Response): void {
    this.methodNotAllowed(req, res);
  }

  private methodNotAllowed(req: ApiRequest, res: Response): void {
    if (!this.checkOrigin(req, res)) return;
    res.setHeader('Allow', 'POST');
    jsonRpcError(res, 405, 'Method Not Allowed: this stateless endpoint accepts POST only');
  }

  private checkOrigin(req: ApiRequest, res: Response): boolean {
    if (isAllowedOrigin(header(req, 'origin'), this.config.publicBaseUrl)) return true;
    jsonRpcError(res, 403, 'Forbidden: Origin not allowed');
    return false;
  }

  /**
   * Authorization: Bearer only. An API key goes to ApiKeysService, anything else to the
   * token authenticator (OAuth access tokens). Unknown → 401 with the challenge; a plan
   * without API access → 403.
   */
  private async authenticate(req: ApiRequest, res: Response): Promise<McpCaller | null> {
    const token = bearerToken(header(req, 'authorization'));
    let caller: McpCaller | null = null;
    if (token) {
      if (token.startsWith(KEY_PREFIX)) {
        // An API key, refused without a lookup when its format or checksum fails.
        const auth = await this.keys.authenticate(token);
        caller = auth ? { auth } : null;
      } else if (token.length <= 4096) {
        caller = await this.tokens.authenticate(token);
      }
    }
    if (!caller) {
      res.setHeader('WWW-Authenticate', wwwAuthenticate(this.config.publicBaseUrl, token !== null));
      res.status(401).json({
        error: 'invalid_token',
        error_description:
          token !== null
            ? 'The access token or API key is invalid, expired or revoked.'
            : 'Authorization required: send "Authorization: Bearer <token>".',
      });
      return null;
    }
    if (!hasApiAccess(caller.auth.plan)) {
      jsonRpcError(
        res,
        403,
        `Forbidden: the ${caller.auth.plan} plan has no API access. Upgrade to Pro or Agency to use the connector.`,
      );
      return null;
    }
    return caller;
  }
}

function header(req: ApiRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Rewrites MCP-Protocol-Version in both header views (the SDK transport reads rawHeaders). */
function setProtocolVersion(req: ApiRequest, value: string | undefined): void {
  if (value === undefined || req.headers['mcp-protocol-version'] === value) return;
  req.headers['mcp-protocol-version'] = value;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].toLowerCase() === 'mcp-protocol-version') req.rawHeaders[i + 1] = value;
  }
}
