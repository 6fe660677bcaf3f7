import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { PlanName } from '@app/plans';

/** A customer account. Schema: migration 1763700000000 (foundation). */
@Entity({ name: 'accounts' })
@Check('accounts_name_check', 'length(name) BETWEEN 1 AND 200')
@Check('accounts_plan_check', `plan IN ('free', 'starter', 'pro', 'agency')`)
@Check('accounts_credits_check', 'credits >= 0')
export class AccountEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  plan: PlanName;

  /** The credit balance; changed only together with a credit_ledger row. */
  @Column({ type: 'integer', default: 0 })
  credits: number;

  /** Per-account limit overrides; members named like the admin `limits` object. */
  @Column({ type: 'jsonb', default: {} })
  overrides: Record<string, number | 'unlimited'>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
