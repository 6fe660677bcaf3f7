import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '@app/core';
import {
  CustomOAuthError,
  InvalidClientMetadataError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { ClientMetadataFetcher } from './client-metadata-fetcher';
import { OAuthClientRow, OAuthClientsRepository } from './oauth-clients.repository';
import { REDIRECT_URI_RULE, isAcceptableRedirectUri } from './redirect-uris';

/** A cached metadata document is fetched again after this long. */
const CLIENT_DOCUMENT_CACHE_SECONDS = 3600;
const MAX_CLIENT_ID_LENGTH = 2000;
const MAX_NAME_LENGTH = 100;
const MAX_REDIRECT_URIS = 10;
/** The whole registration request, as JSON (checked before anything else). */
export const MAX_REGISTRATION_BYTES = 8192;
/** What every client is, whatever it asked: kept in code, not stored with each client. */
const FIXED_METADATA = {
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
};

/** A client as the authorization server sees it (the SDK's shape) plus our row id. */
export type OAuthClient = OAuthClientInformationFull & { pk: number };

/**
 * OAuth clients: RFC 7591 dynamic registration (public clients only) and Client ID Metadata
 * Documents (an https client_id naming its document, fetched through the crawler's SSRF
 * guard and cached). Redirect URIs: https, or http on a loopback host.
 */
@Injectable()
export class OAuthClientsService {
  constructor(
    private readonly clients: OAuthClientsRepository,
    private readonly documents: ClientMetadataFetcher,
    private readonly clock: Clock,
  ) {}

  /** The client with this id (a registered one, or a metadata document), else undefined. */
  async find(clientId: unknown): Promise<OAuthClient | undefined> {
    if (typeof clientId !== 'string' || clientId.length === 0) return undefined;
    if (clientId.length > MAX_CLIENT_ID_LENGTH) return undefined;
    if (isMetadataDocumentUrl(clientId)) return this.fromDocument(clientId);
    const row = await this.clients.find(clientId);
    return row && row.kind === 'registered' ? toClient(row) : undefined;
  }

  /** RFC 7591 registration of a public client; 400 invalid_redirect_uri for a bad redirect URI. */
  async register(metadata: Record<string, unknown>): Promise<OAuthClient> {
    const redirectUris = metadata.redirect_uris;
    if (!Array.isArray(redirectUris) || redirectUris.length === 0) {
      throw new InvalidClientMetadataError('redirect_uris is required');
    }
    if (redirectUris.length > MAX_REDIRECT_URIS) {
      throw new InvalidClientMetadataError(`at most ${MAX_REDIRECT_URIS} redirect_uris`);
    }
    if (!redirectUris.every(isAcceptableRedirectUri)) {
      throw invalidRedirectUri();
    }
    if (typeof metadata.client_name === 'string' && metadata.client_name.length > MAX_NAME_LENGTH) {
      throw new InvalidClientMetadataError(
        `client_name must be at most ${MAX_NAME_LENGTH} characters.`,
      );
    }
    const grantTypes = metadata.grant_types;
    if (
      Array.isArray(grantTypes) &&
      grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')
    ) {
      throw new InvalidClientMetadataError(
        'grant_types may only hold authorization_code and refresh_token',
      );
    }
    // Each value once: name and redirect URIs in their columns, the optional members in
    // `metadata`, the fixed ones in code.
    const row = await this.clients.insertRegistered(
      `mcp-${randomUUID()}`,
      clientName(metadata.client_name, redirectUris as string[]),
      redirectUris as string[],
      pickMetadata(metadata),
      this.clock.now(),
    );
    return toClient(row);
  }

  private async fromDocument(url: string): Promise<OAuthClient | undefined> {
    const now = this.clock.now();
    const cached = await this.clients.find(url);
    if (
      cached &&
      cached.kind === 'metadata_document' &&
      cached.fetched_at &&
      now.getTime() - cached.fetched_at.getTime() < CLIENT_DOCUMENT_CACHE_SECONDS * 1000
    ) {
      return toClient(cached);
    }
    if (cached && cached.kind !== 'metadata_document') return undefined;
    const doc = await this.documents.fetch(url);
    if (!doc || doc.client_id !== url) return undefined;
    const redirectUris = doc.redirect_uris;
    if (
      !Array.isArray(redirectUris) ||
      redirectUris.length === 0 ||
      redirectUris.length > MAX_REDIRECT_URIS ||
      !redirectUris.every(isAcceptableRedirectUri)
    ) {
      return undefined;
    }
    const method = doc.token_endpoint_auth_method;
    if (method !== undefined && method !== 'none') return undefined;
    const row = await this.clients.upsertDocument(
      url,
      clientName(doc.client_name, redirectUris as string[]),
      redirectUris as string[],
      pickMetadata(doc),
      now,
    );
    return row ? toClient(row) : undefined;
  }
}

/** True for an https URL with a path, no fragment and no credentials: a metadata-document client id. */
export function isMetadataDocumentUrl(value: string): boolean {
  if (!value.startsWith('https://')) return false;
  try {
    const u = new URL(value);
    return (
      u.protocol === 'https:' &&
      u.pathname !== '/' &&
      u.hash === '' &&
      !value.includes('#') &&
      u.username === '' &&
      u.password === ''
    );
  } catch {
    return false;
  }
}

function invalidRedirectUri(): CustomOAuthError {
  return new CustomOAuthError('invalid_redirect_uri', REDIRECT_URI_RULE);
}

function clientName(value: unknown, redirectUris: string[]): string {
  if (typeof value === 'string' && value.trim() !== '') {
    return (
      value
        // eslint-disable-next-line no-control-regex
        .replace(/[\u0000-\u001f\u007f]/g, ' ')
        .trim()
        .slice(0, MAX_NAME_LENGTH)
    );
  }
  try {
    return new URL(redirectUris[0]).host || 'Unnamed client';
  } catch {
    return 'Unnamed client';
  }
}

/** The informative RFC 7591 members we keep (strings only, bounded). */
function pickMetadata(doc: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const member of ['client_uri', 'logo_uri', 'software_id', 'software_version', 'scope']) {
    const v = doc[member];
    if (typeof v === 'string' && v.length <= 500) out[member] = v;
  }
  return out;
}

function toClient(row: OAuthClientRow): OAuthClient {
  return {
    ...(row.metadata as Partial<OAuthClientInformationFull>),
    ...FIXED_METADATA,
    grant_types: [...FIXED_METADATA.grant_types],
    response_types: [...FIXED_METADATA.response_types],
    client_id: row.client_id,
    client_name: row.client_name,
    redirect_uris: row.redirect_uris,
    client_id_issued_at: Math.floor(row.created_at.getTime() / 1000),
    pk: row.id,
  } as OAuthClient;
}
