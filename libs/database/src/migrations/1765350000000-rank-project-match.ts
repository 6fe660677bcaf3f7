import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How a rank project's domain matches a result's host (docs/rank-management.md):
 * `domain` (the domain and its subdomains rank; every existing project) or `exact_host`
 * (only the exact normalised host). Read by the worker's position matching.
 */
export class RankProjectMatch1765350000000 implements MigrationInterface {
  name = 'RankProjectMatch1765350000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rank_projects ADD COLUMN match text NOT NULL DEFAULT 'domain'`);
    await q.query(
      `ALTER TABLE rank_projects ADD CONSTRAINT rank_projects_match_check CHECK (match IN ('domain', 'exact_host'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rank_projects DROP CONSTRAINT rank_projects_match_check`);
    await q.query(`ALTER TABLE rank_projects DROP COLUMN match`);
  }
}
