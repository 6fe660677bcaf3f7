import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The version of an account's rank answers (docs/your-data.md, "Pages kept by the API"):
 * `rank_versions.version` is bumped once by every transaction that inserts, updates or
 * deletes a tracked keyword or a rank project of the account. GET /rank/keywords keeps the
 * bytes of recent pages in the API process and serves them again only while this number is
 * unchanged, so one primary-key read replaces reading, decoding and encoding ~50 KB.
 *
 * Deferred constraint triggers: the bump runs at commit, after every other statement of the
 * transaction, so the version row is locked only for the commit itself and never before a
 * keyword or project row lock (no lock-order deadlock between two writers of one account).
 * The answer and its version commit together: a reader never sees one without the other.
 * The bump is once per account per transaction, however many rows it writes: the row keeps
 * the 64-bit id of the transaction that bumped it last (`bumped_by`). A transaction-local
 * setting would do the same, but PostgreSQL 15 keeps every custom setting name a session has
 * used, one per account, in an array it re-sorts on each new name. An account deleted in the
 * same transaction gets no row (the cascade removes it otherwise).
 */
export class RankVersions1765100000000 implements MigrationInterface {
  name = 'RankVersions1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rank_versions (
        account_id integer PRIMARY KEY,
        version    bigint NOT NULL,
        bumped_by  bigint NOT NULL,
        CONSTRAINT rank_versions_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE
      )`);
    // Already bumped by this transaction: bumped_by is its 64-bit id (never reused, unlike
    // the 32-bit xmin).
    await q.query(`
      CREATE FUNCTION rank_versions_bump_account(acc integer) RETURNS void
        LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM rank_versions
                   WHERE account_id = acc AND bumped_by = pg_current_xact_id()::text::bigint) THEN
          RETURN;
        END IF;
        INSERT INTO rank_versions AS v (account_id, version, bumped_by)
          SELECT acc, 1, pg_current_xact_id()::text::bigint
          WHERE EXISTS (SELECT 1 FROM accounts WHERE id = acc)
        ON CONFLICT (account_id) DO UPDATE
          SET version = v.version + 1, bumped_by = EXCLUDED.bumped_by;
      END $$`);
    await q.query(`
      CREATE FUNCTION rank_versions_bump() RETURNS trigger
        LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN PERFORM rank_versions_bump_account(OLD.account_id); END IF;
        IF TG_OP <> 'DELETE' THEN PERFORM rank_versions_bump_account(NEW.account_id); END IF;
        RETURN NULL;
      END $$`);
    for (const table of ['tracked_keywords', 'rank_projects']) {
      await q.query(`
        CREATE CONSTRAINT TRIGGER ${table}_rank_version
          AFTER INSERT OR UPDATE OR DELETE ON ${table}
          DEFERRABLE INITIALLY DEFERRED
          FOR EACH ROW EXECUTE FUNCTION rank_versions_bump()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER rank_projects_rank_version ON rank_projects`);
    await q.query(`DROP TRIGGER tracked_keywords_rank_version ON tracked_keywords`);
    await q.query(`DROP FUNCTION rank_versions_bump()`);
    await q.query(`DROP FUNCTION rank_versions_bump_account(integer)`);
    await q.query(`DROP TABLE rank_versions`);
  }
}
