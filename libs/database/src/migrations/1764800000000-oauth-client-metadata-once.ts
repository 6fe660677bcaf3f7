import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OAuth clients keep each value once (docs/oauth.md, "Registration limits"): `client_name`
 * and `redirect_uris` live in their columns, the members every client has alike
 * (`token_endpoint_auth_method`, `grant_types`, `response_types`) in code; `metadata` holds
 * only the optional informative members. Removes the copies from rows stored before.
 */
export class OAuthClientMetadataOnce1764800000000 implements MigrationInterface {
  name = 'OAuthClientMetadataOnce1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE oauth_clients
      SET metadata = metadata - ARRAY['client_id', 'client_name', 'redirect_uris',
                                      'token_endpoint_auth_method', 'grant_types', 'response_types']
      WHERE metadata ?| ARRAY['client_id', 'client_name', 'redirect_uris',
                              'token_endpoint_auth_method', 'grant_types', 'response_types']`);
  }

  async down(): Promise<void> {
    // Nothing to restore: the removed members are the columns' values and constants.
  }
}
