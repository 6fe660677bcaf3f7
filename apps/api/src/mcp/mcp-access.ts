import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { bearerToken as parseBearer } from '@app/core';
import { MCP_SCOPES } from '../oauth/oauth-scopes';

/**
 * Protocol revisions /mcp accepts in MCP-Protocol-Version: what the SDK serves plus
 * 2026-07-28, which SDK 1.x does not know yet. A 2026-07-28 request is handed to the SDK's
 * transport as its latest revision (the tools and messages used here are the same); see
 * docs/mcp.md.
 */
const NEWER_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
export const ACCEPTED_PROTOCOL_VERSIONS: readonly string[] = [
  ...NEWER_PROTOCOL_VERSIONS,
  ...SUPPORTED_PROTOCOL_VERSIONS,
];

/** The revision to give the SDK transport for a request header (undefined = no header). */
export function transportProtocolVersion(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return (NEWER_PROTOCOL_VERSIONS as readonly string[]).includes(header)
    ? LATEST_PROTOCOL_VERSION
    : header;
}

export function isAcceptedProtocolVersion(header: string | undefined): boolean {
  return header === undefined || ACCEPTED_PROTOCOL_VERSIONS.includes(header);
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * DNS-rebinding protection: a request without Origin (desktop MCP clients, CLIs, servers)
 * passes; a browser Origin passes when it is PUBLIC_BASE_URL's origin or an http(s) loopback
 * origin (a local browser-based client such as the MCP Inspector's UI); anything else
 * (another site, "null") is refused with 403.
 */
export function isAllowedOrigin(origin: string | undefined, publicBaseUrl: string): boolean {
  if (origin === undefined || origin === '') return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.origin === new URL(publicBaseUrl).origin) return true;
  return LOOPBACK_HOSTS.has(url.hostname);
}

/** The resource metadata URL of BASE/mcp (RFC 9728), served by the OAuth part. */
const resourceMetadataUrl = (publicBaseUrl: string) =>
  `${publicBaseUrl.replace(/\/+$/, '')}/.well-known/oauth-protected-resource/mcp`;

/**
 * The 401 challenge of /mcp: resource_metadata and scope always, error="invalid_token" when a
 * token was sent (RFC 6750 section 3; MCP Authorization).
 */
export function wwwAuthenticate(publicBaseUrl: string, tokenSent: boolean): string {
  return (
    `Bearer resource_metadata="${resourceMetadataUrl(publicBaseUrl)}", scope="${MCP_SCOPES.join(' ')}"` +
    (tokenSent ? ', error="invalid_token"' : '')
  );
}

/** The bearer of an Authorization header: the token, '' when the header is not a bearer, null when absent. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined || header === '') return null;
  return parseBearer(header) ?? '';
}

/**
 * CORS of /mcp: only the origins the Origin rule admits (PUBLIC_BASE_URL's, loopback) are
 * answered, so a browser-based client on such an origin (the MCP Inspector's web UI) may send
 * the MCP headers and read the challenge and session headers; any other origin gets no
 * Access-Control-Allow-* at all (its requests are refused with 403 anyway).
 */
export function mcpCorsOptions(publicBaseUrl: string) {
  return {
    origin: (origin: string | undefined, callback: (err: Error | null, allow?: boolean) => void) =>
      callback(null, origin !== undefined && isAllowedOrigin(origin, publicBaseUrl)),
    methods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'Accept',
      'MCP-Protocol-Version',
      'Mcp-Session-Id',
      'Last-Event-ID',
      'X-Request-Id',
    ],
    exposedHeaders: ['WWW-Authenticate', 'Mcp-Session-Id', 'MCP-Protocol-Version', 'X-Request-Id'],
    maxAge: 86_400,
  };
}
