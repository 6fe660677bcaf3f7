import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, QueryResultRow } from 'pg';
import { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';

/**
 * What repositories run statements through, inside or outside a transaction. Only classes
 * named `*Repository` use it: services hold the rules, repositories the statements.
 */
export class SqlScope {
  constructor(protected readonly runner: DataSource | EntityManager) {}

  /**
   * The rows of one statement. TypeORM's raw `query()` answers `[rows, rowCount]` for a
   * top-level UPDATE or DELETE and plain rows for everything else; this evens that out, so
   * `UPDATE ... RETURNING` reads like a SELECT.
   */
  async rows<T>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    const raw: unknown = await this.runner.query(text, params as unknown[]);
    if (
      Array.isArray(raw) &&
      raw.length === 2 &&
      Array.isArray(raw[0]) &&
      typeof raw[1] === 'number'
    ) {
      return raw[0] as T[];
    }
    return raw as T[];
  }

  /** The first row of one statement, or undefined. */
  async one<T>(text: string, params: readonly unknown[] = []): Promise<T | undefined> {
    const rows = await this.rows<T>(text, params);
    return rows[0];
  }

  /** Runs a statement for its effect. */
  async run(text: string, params: readonly unknown[] = []): Promise<void> {
    await this.runner.query(text, params as unknown[]);
  }

  /** The TypeORM repository of an entity, for plain CRUD (bound to the transaction, if any). */
  repository<E extends ObjectLiteral>(entity: EntityTarget<E>): Repository<E> {
    return this.runner.getRepository(entity);
  }
}

/** A row that belongs to an account. */
interface AccountOwned {
  id: number;
  accountId: number;
}

/** A transaction's scope: every statement on it runs on the transaction's connection. */
export class SqlTx extends SqlScope {
  constructor(manager: EntityManager) {
    super(manager);
  }

  /**
   * Locks one row of an account-owned table until the transaction ends and answers its
   * account id; null when there is no such row. `FOR NO KEY UPDATE`: a second writer of the
   * same row waits, while readers and inserts of rows referencing it (foreign keys take
   * `FOR KEY SHARE`) do not. Serializes the batches written under one parent row.
   */
  async lockAccountRow(entity: EntityTarget<AccountOwned>, id: number): Promise<number | null> {
    const row = await this.repository(entity).findOne({
      where: { id },
      select: { id: true, accountId: true },
      lock: { mode: 'for_no_key_update' },
    });
    return row?.accountId ?? null;
  }
}

/**
 * The statement and lock bound (ms) of `Sql.bulkTransaction`; null where the connections
 * carry no bound to raise (the worker, the CLIs).
 */
export const SQL_BULK_TIMEOUT_MS = Symbol('SQL_BULK_TIMEOUT_MS');

/**
 * The one way SQL runs in this code base. Inject it into a `*Repository` class; nothing
 * else runs statements.
 */
@Injectable()
export class Sql extends SqlScope {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() @Inject(SQL_BULK_TIMEOUT_MS) private readonly bulkTimeoutMs: number | null = null,
  ) {
    super(dataSource);
  }

  /** Runs `work` in one transaction (READ COMMITTED); commits when it resolves. */
  transaction<T>(work: (tx: SqlTx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(new SqlTx(manager)));
  }

  /**
   * A transaction of an admin ingestion batch (or a rollup rebuild): its statements and lock
   * waits are bounded by DB_BULK_STATEMENT_TIMEOUT_MS instead of the request path's
   * DB_STATEMENT_TIMEOUT_MS / DB_LOCK_TIMEOUT_MS (`SET LOCAL`, so the connection goes back
   * to the pool with its own bounds). A 10,000-row GSC batch takes 1-5 s and waits for the
   * batch before it on the same property: the request path's bounds would kill it wrongly
   * (docs/reliability.md, "Timeouts"). Where the connections carry no bound (the worker,
   * the CLIs) it is a plain transaction.
   */
  bulkTransaction<T>(work: (tx: SqlTx) => Promise<T>): Promise<T> {
    const ms = this.bulkTimeoutMs;
    if (!ms) return this.transaction(work);
    return this.transaction(async (tx) => {
      await tx.run(
        `SELECT set_config('statement_timeout', $1, true), set_config('lock_timeout', $1, true)`,
        [`${ms}ms`],
      );
      return work(tx);
    });
  }

  /**
   * Runs a hot-path statement as a named prepared statement on the driver's pg pool: the
   * server parses and plans it once per connection instead of once per call, and the call
   * skips TypeORM's per-query runner. Only for single statements on the request path.
   */
  async prepared<T extends QueryResultRow>(
    name: string,
    text: string,
    values: readonly unknown[],
  ): Promise<T[]> {
    const result = await this.pgPool().query<T>({ name, text, values: values as unknown[] });
    return result.rows;
  }

  /**
   * A prepared statement (as `prepared`) whose rows are read in the driver's array row mode:
   * one array of column values per row, no object per row.
   */
  async preparedArrays<T extends unknown[]>(
    name: string,
    text: string,
    values: readonly unknown[],
  ): Promise<T[]> {
    const result = await this.pgPool().query<T>({
      name,
      text,
      values: values as unknown[],
      rowMode: 'array',
    });
    return result.rows;
  }

  /** The driver's pg pool under TypeORM (the prepared statements run on it directly). */
  private pgPool(): Pool {
    return (this.dataSource.driver as unknown as { master: Pool }).master;
  }

  /** A round trip to the server (readiness checks). */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }
}
