import { ManualClock } from '@app/core';
import type { ClientMetadataFetcher } from './client-metadata-fetcher';
import type { OAuthClientRow, OAuthClientsRepository } from './oauth-clients.repository';
import { OAuthClientsService, isMetadataDocumentUrl } from './oauth-clients.service';
import { isAcceptableRedirectUri } from './redirect-uris';

/** An in-memory stand-in for the repository. */
function memoryRepository() {
  const rows = new Map<string, OAuthClientRow>();
  let id = 0;
  const put = (
    kind: OAuthClientRow['kind'],
    clientId: string,
    name: string,
    uris: string[],
    metadata: Record<string, unknown>,
    now: Date,
  ) => {
    const row: OAuthClientRow = {
      id: ++id,
      client_id: clientId,
      kind,
      client_name: name,
      redirect_uris: uris,
      metadata,
      created_at: now,
      fetched_at: kind === 'metadata_document' ? now : null,
    };
    rows.set(clientId, row);
    return Promise.resolve(row);
  };
  return {
    rows,
    repo: {
      find: (clientId: string) => Promise.resolve(rows.get(clientId)),
      insertRegistered: (
        c: string,
        n: string,
        u: string[],
        m: Record<string, unknown>,
        now: Date,
      ) => put('registered', c, n, u, m, now),
      upsertDocument: (c: string, n: string, u: string[], m: Record<string, unknown>, now: Date) =>
        put('metadata_document', c, n, u, m, now),
    } as unknown as OAuthClientsRepository,
  };
}

const DOC_URL = 'https://assistant.example/oauth/client.json';

describe('redirect URIs and client ids', () => {
  it.each([
    ['https://app.example.com/cb', true],
    ['http://localhost:1234/cb', true],
    ['http://127.0.0.1/cb', true],
    ['http://[::1]:8080/cb', true],
    ['http://app.example.com/cb', false],
    ['http://localhost.evil.example/cb', false],
    ['https://app.example.com/cb#frag', false],
    ['https://user:pw@app.example.com/cb', false],
    ['javascript:alert(1)', false],
    ['cursor://anysphere.cursor-retrieval/oauth/callback', true],
    ['myapp://callback', false],
    ['', false],
  ])('%s → %s', (uri, ok) => {
    expect(isAcceptableRedirectUri(uri)).toBe(ok);
  });

  it('metadata-document client ids are https URLs with a path', () => {
    expect(isMetadataDocumentUrl(DOC_URL)).toBe(true);
    expect(isMetadataDocumentUrl('https://assistant.example/')).toBe(false);
    expect(isMetadataDocumentUrl('http://assistant.example/client.json')).toBe(false);
    expect(isMetadataDocumentUrl('mcp-1234')).toBe(false);
  });
});

describe('OAuthClientsService', () => {
  const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));

  function service(doc: Record<string, unknown> | null) {
    const { repo, rows } = memoryRepository();
    const fetcher = { fetch: jest.fn().mockResolvedValue(doc) };
    const svc = new OAuthClientsService(repo, fetcher as unknown as ClientMetadataFetcher, clock);
    return { svc, fetcher, rows };
  }

  it('registers public clients only, whatever the request asks', async () => {
    const { svc } = service(null);
    const client = await svc.register({
      redirect_uris: ['http://localhost:5000/cb'],
      client_name: 'Cursor',
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(client).toMatchObject({ client_name: 'Cursor', token_endpoint_auth_method: 'none' });
    expect(client.client_id).toMatch(/^mcp-/);
    expect((client as { client_secret?: string }).client_secret).toBeUndefined();
    expect(await svc.find(client.client_id)).toMatchObject({ client_id: client.client_id });
  });

  it('refuses bad redirect URIs with invalid_redirect_uri', async () => {
    const { svc } = service(null);
    await expect(
      svc.register({ redirect_uris: ['http://app.example.com/cb'] }),
    ).rejects.toMatchObject({
      errorCode: 'invalid_redirect_uri',
    });
  });

  it('accepts a metadata document whose client_id is its URL, and caches it for an hour', async () => {
    const { svc, fetcher } = service({
      client_id: DOC_URL,
      client_name: 'Assistant',
      redirect_uris: ['https://assistant.example/callback'],
    });
    const client = await svc.find(DOC_URL);
    expect(client).toMatchObject({ client_id: DOC_URL, client_name: 'Assistant' });
    await svc.find(DOC_URL);
    expect(fetcher.fetch).toHaveBeenCalledTimes(1);
    clock.advance(3601_000);
    await svc.find(DOC_URL);
    expect(fetcher.fetch).toHaveBeenCalledTimes(2);
  });

  it.each([
    [
      'another client_id',
      { client_id: 'https://other.example/c.json', redirect_uris: ['https://a.example/cb'] },
    ],
    ['no redirect URIs', { client_id: DOC_URL }],
    ['an http redirect URI', { client_id: DOC_URL, redirect_uris: ['http://a.example/cb'] }],
    [
      'a confidential client',
      {
        client_id: DOC_URL,
        redirect_uris: ['https://a.example/cb'],
        token_endpoint_auth_method: 'private_key_jwt',
      },
    ],
    ['no document (fetch refused)', null],
  ])('refuses a metadata document with %s', async (_, doc) => {
    const { svc } = service(doc as Record<string, unknown> | null);
    expect(await svc.find(DOC_URL)).toBeUndefined();
  });
});
