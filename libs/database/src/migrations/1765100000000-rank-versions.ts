import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The version of an account's rank answers (docs/your-data.md, "Answers kept by the API"):
 * `rank_versions.version` is bumped once by every transaction that inserts, updates or
 * deletes a tracked keyword or a rank project of the account. GET /rank/keywords keeps the
 * bytes of recent pages in the API process and serves them again only while this number is
 * unchanged, so one primary-key read replaces reading, decoding and encoding ~50 KB.
 *
 * Deferred constraint triggers: the bump runs at commit, after every other statement of the
 * transaction, so the version row is locked only for the commit itself and never before a
 * keyword or project row lock (no lock-order deadlock between two writers of one account).
 * The answer and its version commit together: a reader never sees one without the other.
 * A transaction-local setting makes the bump once per account per transaction, however many
 * rows it writes. An account deleted in the same transaction gets no row (the cascade removes
 * it otherwise).
 */
export class RankVersions1765100000000 implements MigrationInterface {
  name = 'RankVersions1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rank_versions (
        account_id integer PRIMARY KEY,
        version    bigint NOT NULL,
        CONSTRAINT rank_versions_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE FUNCTION rank_versions_bump_account(acc integer) RETURNS void
        LANGUAGE plpgsql AS $$
      BEGIN
        IF current_setting('rank_versions.bumped_' || acc, true) = 'y' THEN RETURN; END IF;
        INSERT INTO rank_versions AS v (account_id, version)
          SELECT acc, 1 WHERE EXISTS (SELECT 1 FROM accounts WHERE id = acc)
        ON CONFLICT (account_id) DO UPDATE SET version = v.version + 1;
        PERFORM set_config('rank_versions.bumped_' || acc, 'y', true);
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
