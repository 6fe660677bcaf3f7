import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

export type PlanName = 'free' | 'starter' | 'pro' | 'agency';

@Entity({ name: 'accounts' })
export class AccountEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  plan: PlanName;

  @Column({ type: 'integer' })
  credits: number;

  /** Per-account limit overrides; members named like the admin `limits` object. */
  @Column({ type: 'jsonb' })
  overrides: Record<string, number | 'unlimited'>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
