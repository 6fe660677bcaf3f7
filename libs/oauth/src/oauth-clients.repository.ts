import { Injectable } from '@nestjs/common';
import { Sql } from '@app/database';

export interface OAuthClientRow {
  id: number;
  client_id: string;
  kind: 'registered' | 'metadata_document';
  client_name: string;
  redirect_uris: string[];
  metadata: Record<string, unknown>;
  created_at: Date;
  fetched_at: Date | null;
}

/** The statements of oauth_clients. */
@Injectable()
export class OAuthClientsRepository {
  constructor(private readonly sql: Sql) {}

  find(clientId: string): Promise<OAuthClientRow | undefined> {
    return this.sql.one<OAuthClientRow>(`SELECT * FROM oauth_clients WHERE client_id = $1`, [
      clientId,
    ]);
  }

  async insertRegistered(
    clientId: string,
    clientName: string,
    redirectUris: string[],
    metadata: Record<string, unknown>,
    now: Date,
  ): Promise<OAuthClientRow> {
    const row = await this.sql.one<OAuthClientRow>(
      `INSERT INTO oauth_clients (client_id, kind, client_name, redirect_uris, metadata, created_at)
       VALUES ($1, 'registered', $2, $3::jsonb, $4::jsonb, $5) RETURNING *`,
      [clientId, clientName, JSON.stringify(redirectUris), JSON.stringify(metadata), now],
    );
    return row!;
  }

  /**
   * Deletes up to `limit` clients created before `before` that never completed an
   * authorization (no grant of theirs was ever exchanged for tokens); their unexchanged
   * grants and codes go with them (cascade). How many were deleted.
   */
  async deleteUnused(before: Date, limit: number): Promise<number> {
    const rows = await this.sql.rows<{ id: number }>(
      `DELETE FROM oauth_clients WHERE id IN (
         SELECT c.id FROM oauth_clients c
         WHERE c.created_at < $1
           AND NOT EXISTS (
             SELECT 1 FROM oauth_grants g JOIN oauth_tokens t ON t.grant_id = g.id
             WHERE g.client_pk = c.id)
         ORDER BY c.id LIMIT $2)
       RETURNING id`,
      [before, limit],
    );
    return rows.length;
  }

  /** Stores (or refreshes) the cached metadata document of a URL client. */
  async upsertDocument(
    clientId: string,
    clientName: string,
    redirectUris: string[],
    metadata: Record<string, unknown>,
    now: Date,
  ): Promise<OAuthClientRow> {
    const row = await this.sql.one<OAuthClientRow>(
      `INSERT INTO oauth_clients (client_id, kind, client_name, redirect_uris, metadata, created_at, fetched_at)
       VALUES ($1, 'metadata_document', $2, $3::jsonb, $4::jsonb, $5, $5)
       ON CONFLICT (client_id) DO UPDATE
         SET client_name = EXCLUDED.client_name, redirect_uris = EXCLUDED.redirect_uris,
             metadata = EXCLUDED.metadata, fetched_at = EXCLUDED.fetched_at
       WHERE oauth_clients.kind = 'metadata_document'
       RETURNING *`,
      [clientId, clientName, JSON.stringify(redirectUris), JSON.stringify(metadata), now],
    );
    return row!;
  }
}
