import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sites a Google connection can sync (docs/gsc-connect.md): what `sites.list` answered
 * at connect (or reconnect), `[{site_url, permission_level}]`, shown by
 * `GET /account/v1/gsc/connections` and checked by `POST /account/v1/gsc/properties`.
 */
export class GscConnectionSites1765450000000 implements MigrationInterface {
  name = 'GscConnectionSites1765450000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gsc_connections ADD COLUMN sites jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gsc_connections DROP COLUMN sites`);
  }
}
