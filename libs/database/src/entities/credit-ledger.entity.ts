import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { AccountEntity } from './account.entity';

/**
 * Append-only: a refund is a new row, never an edit (a trigger refuses updates).
 * Schema: migration 1763700000000 (foundation).
 */
@Entity({ name: 'credit_ledger' })
@Check('credit_ledger_delta_check', 'delta <> 0')
@Check('credit_ledger_balance_after_check', 'balance_after >= 0')
@Index('credit_ledger_account_idx', ['accountId', 'id'])
export class CreditLedgerEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @ForeignKey(() => AccountEntity, { name: 'credit_ledger_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ type: 'integer' })
  delta: number;

  @Column({ name: 'balance_after', type: 'integer' })
  balanceAfter: number;

  @Column({ type: 'text' })
  reason: string;

  @Column({ name: 'request_id', type: 'text', nullable: true })
  requestId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
