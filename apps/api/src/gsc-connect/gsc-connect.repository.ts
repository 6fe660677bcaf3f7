import { Injectable } from '@nestjs/common';
import { GscConnectionEntity, GscPropertyEntity, Sql, SqlScope } from '@app/database';

/** A site of a connection as stored (what sites.list answered). */
export interface StoredSite {
  site_url: string;
  permission_level: string;
}

/** A property with the columns the account area shows beyond the public row. */
export type GscPropertyRecord = GscPropertyEntity;

/** What a new property is created with (connected or sandbox). */
interface NewProperty {
  propertyUri: string;
  displayName: string;
  googleEmail: string;
  isSandbox: boolean;
  connectionId: number | null;
  permissionLevel: string | null;
}

/**
 * The statements of connecting Search Console (docs/gsc-connect.md): Google connections and
 * the properties the account adds or removes. Ownership (account_id) is part of every
 * statement; another account's row reads as missing.
 */
@Injectable()
export class GscConnectRepository {
  constructor(private readonly sql: Sql) {}

  connections(accountId: number): Promise<GscConnectionEntity[]> {
    return this.sql
      .repository(GscConnectionEntity)
      .find({ where: { accountId }, order: { id: 'ASC' } });
  }

  connection(accountId: number, id: number): Promise<GscConnectionEntity | null> {
    return this.sql.repository(GscConnectionEntity).findOneBy({ id, accountId });
  }

  properties(accountId: number): Promise<GscPropertyRecord[]> {
    return this.sql
      .repository(GscPropertyEntity)
      .find({ where: { accountId }, order: { id: 'ASC' } });
  }

  /** How many properties the account has (what counts against `gsc_properties`). */
  async propertyCount(accountId: number, scope: SqlScope = this.sql): Promise<number> {
    const row = await scope.one<{ n: number }>(
      'SELECT count(*)::int AS n FROM gsc_properties WHERE account_id = $1',
      [accountId],
    );
    return row?.n ?? 0;
  }

  /**
   * Stores a connection after a consent: the account's connection of the same Google e-mail
   * gets the new token and sites and is active again (a reconnect), else a new one. `seal`
   * gets the row's id (the sealed token is bound to it).
   */
  async saveConnection(
    accountId: number,
    googleEmail: string,
    sites: StoredSite[],
    seal: (connectionId: number) => string,
    now: Date,
  ): Promise<GscConnectionEntity> {
    return this.sql.transaction(async (tx) => {
      const existing = await tx.one<{ id: number }>(
        `SELECT id FROM gsc_connections WHERE account_id = $1 AND lower(google_email) = lower($2)
         ORDER BY id LIMIT 1 FOR UPDATE`,
        [accountId, googleEmail],
      );
      const id =
        existing?.id ??
        (await tx.one<{ id: number }>(`SELECT nextval('gsc_connections_id_seq')::int AS id`))!.id;
      await tx.run(
        `INSERT INTO gsc_connections (id, account_id, google_email, refresh_token_enc, status, sites, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'active', $5::jsonb, $6, $6)
         ON CONFLICT (id) DO UPDATE SET refresh_token_enc = EXCLUDED.refresh_token_enc,
           status = 'active', sites = EXCLUDED.sites, google_email = EXCLUDED.google_email,
           updated_at = EXCLUDED.updated_at`,
        [id, accountId, googleEmail, seal(id), JSON.stringify(sites), now],
      );
      return (await tx.repository(GscConnectionEntity).findOneBy({ id }))!;
    });
  }

  /**
   * Deletes a connection (after its grant was revoked at Google): its properties stop syncing
   * (`paused`, connection_id set to null by the foreign key) and keep their data.
   */
  async deleteConnection(accountId: number, id: number, now: Date): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      await tx.run(
        `UPDATE gsc_properties SET status = 'paused', next_sync_at = NULL, updated_at = $3
         WHERE account_id = $1 AND connection_id = $2`,
        [accountId, id, now],
      );
      const gone = await tx.rows<{ id: number }>(
        'DELETE FROM gsc_connections WHERE id = $1 AND account_id = $2 RETURNING id',
        [id, accountId],
      );
      return gone.length > 0;
    });
  }

  /**
   * Adds a property under the account's `gsc_properties` limit, exactly under concurrency:
   * the account row is locked while it counts and inserts. An existing property of the same
   * site is taken over by the connection (not counted again). `limit` exceeded → the count.
   */
  async addProperty(
    accountId: number,
    p: NewProperty,
    limit: number,
    now: Date,
  ): Promise<{ property: GscPropertyRecord } | { used: number }> {
    return this.sql.transaction(async (tx) => {
      await tx.run('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      const existing = await tx.one<{ id: number }>(
        'SELECT id FROM gsc_properties WHERE account_id = $1 AND property_uri = $2',
        [accountId, p.propertyUri],
      );
      if (existing) {
        await tx.run(
          `UPDATE gsc_properties SET connection_id = $2, permission_level = $3, google_email = $4,
             status = 'active', next_sync_at = $5, updated_at = $5
           WHERE id = $1`,
          [existing.id, p.connectionId, p.permissionLevel, p.googleEmail, now],
        );
        return {
          property: (await tx.repository(GscPropertyEntity).findOneBy({ id: existing.id }))!,
        };
      }
      const used = await this.propertyCount(accountId, tx);
      if (used + 1 > limit) return { used };
      const row = await tx.one<{ id: number }>(
        `INSERT INTO gsc_properties (account_id, property_uri, display_name, status, google_email,
           is_sandbox, last_sync_status, connection_id, permission_level, next_sync_at,
           created_at, updated_at)
         VALUES ($1, $2, $3, 'active', $4, $5, 'pending', $6, $7, $8, $8, $8) RETURNING id`,
        [
          accountId,
          p.propertyUri,
          p.displayName,
          p.googleEmail,
          p.isSandbox,
          p.connectionId,
          p.permissionLevel,
          now,
        ],
      );
      return { property: (await tx.repository(GscPropertyEntity).findOneBy({ id: row!.id }))! };
    });
  }

  /** Removes a property and, by its foreign keys, its facts and rollups. */
  async deleteProperty(accountId: number, id: number): Promise<GscPropertyRecord | null> {
    return this.sql.transaction(async (tx) => {
      const property = await tx.repository(GscPropertyEntity).findOneBy({ id, accountId });
      if (!property) return null;
      await tx.run('DELETE FROM gsc_properties WHERE id = $1 AND account_id = $2', [id, accountId]);
      return property;
    });
  }

  /** The sandbox property URIs the account already has (to name the next one). */
  async sandboxUris(accountId: number): Promise<string[]> {
    const rows = await this.sql.rows<{ property_uri: string }>(
      'SELECT property_uri FROM gsc_properties WHERE account_id = $1 AND is_sandbox',
      [accountId],
    );
    return rows.map((r) => r.property_uri);
  }

  /** The distinct key ids the stored refresh tokens are sealed with (`enc:v1:<kid>:...`). */
  async tokenKeyIds(): Promise<string[]> {
    const rows = await this.sql.rows<{ kid: string }>(
      `SELECT DISTINCT split_part(refresh_token_enc, ':', 3) AS kid FROM gsc_connections
       WHERE refresh_token_enc LIKE 'enc:v1:%'`,
    );
    return rows.map((r) => r.kid);
  }

  /** Up to `limit` connections (by id, after `afterId`) whose token is not sealed by `kid`. */
  tokensNotUnderKey(
    kid: string,
    afterId: number,
    limit: number,
  ): Promise<Array<{ id: number; refreshTokenEnc: string }>> {
    return this.sql.rows(
      `SELECT id, refresh_token_enc AS "refreshTokenEnc" FROM gsc_connections
       WHERE id > $2 AND refresh_token_enc NOT LIKE $1 ORDER BY id LIMIT $3`,
      [`enc:v1:${kid}:%`, afterId, limit],
    );
  }

  /** Replaces a stored token only while it is still the one read (a reconnect in between wins). */
  async replaceToken(id: number, read: string, sealed: string): Promise<boolean> {
    const row = await this.sql.one<{ id: number }>(
      `UPDATE gsc_connections SET refresh_token_enc = $3
       WHERE id = $1 AND refresh_token_enc = $2 RETURNING id`,
      [id, read, sealed],
    );
    return row !== undefined;
  }
}
