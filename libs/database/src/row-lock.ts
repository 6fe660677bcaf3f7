import { EntityTarget } from 'typeorm';
import { SqlScope } from './sql';

/** A row that belongs to an account. */
interface AccountOwned {
  id: number;
  accountId: number;
}

/**
 * Locks one row of an account-owned table until the transaction ends and answers its
 * account id; null when there is no such row. `FOR NO KEY UPDATE`: a second writer of the
 * same row waits, while readers and inserts of rows referencing it (foreign keys take
 * `FOR KEY SHARE`) do not. Used to serialize the batches written under one parent row.
 */
export async function lockAccountRow(
  tx: SqlScope,
  entity: EntityTarget<AccountOwned>,
  id: number,
): Promise<number | null> {
  const row = await tx.repository(entity).findOne({
    where: { id },
    select: { id: true, accountId: true },
    lock: { mode: 'for_no_key_update' },
  });
  return row?.accountId ?? null;
}
