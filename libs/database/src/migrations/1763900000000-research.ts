import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Research endpoints (GET /backlinks, POST /keyword-research):
 * - research_cache: provider answers per account and request, served while fresh
 *   (backlinks: the plan's TTL; keywords: KEYWORD_CACHE_TTL_SECONDS), judged at read time.
 * - research_reservations: the journal of quota units and credits taken before an
 *   upstream call. A row is written in the same statement that takes the unit, then moves
 *   reserved → committed (answer delivered) or reserved → refunded (502, or found stale
 *   by the sweeper after a crash). Refunds are new ledger rows / quota releases.
 */
export class Research1763900000000 implements MigrationInterface {
  name = 'Research1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE research_cache (
        account_id  integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        kind        text NOT NULL CHECK (kind IN ('backlinks', 'keyword_research')),
        cache_key   text NOT NULL CHECK (length(cache_key) BETWEEN 1 AND 1000),
        provider    text NOT NULL,
        payload     jsonb NOT NULL,
        fetched_at  timestamptz NOT NULL,
        PRIMARY KEY (account_id, kind, cache_key)
      )`);
    // Purge of expired rows reads by age.
    await q.query(`CREATE INDEX research_cache_fetched_idx ON research_cache (fetched_at)`);

    await q.query(`
      CREATE TABLE research_reservations (
        id            bigserial PRIMARY KEY,
        account_id    integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        request_id    text NOT NULL,
        endpoint      text NOT NULL CHECK (endpoint IN ('backlinks', 'keyword_research')),
        kind          text NOT NULL CHECK (kind IN ('quota', 'credit')),
        feature       text,
        period_start  date,
        amount        integer NOT NULL CHECK (amount > 0),
        state         text NOT NULL CHECK (state IN ('reserved', 'committed', 'refunded')),
        created_at    timestamptz NOT NULL,
        updated_at    timestamptz NOT NULL,
        CHECK (kind = 'credit' OR (feature IS NOT NULL AND period_start IS NOT NULL))
      )`);
    // The sweeper's read path: stale open reservations, oldest first.
    await q.query(
      `CREATE INDEX research_reservations_open_idx ON research_reservations (created_at) WHERE state = 'reserved'`,
    );
    await q.query(
      `CREATE INDEX research_reservations_account_idx ON research_reservations (account_id, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE research_reservations`);
    await q.query(`DROP TABLE research_cache`);
  }
}
