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

/** A person who can sign in to an account. Schema: migration 1764200000000 (users-sessions). */
@Entity({ name: 'users' })
@Check('users_email_check', 'length(email) BETWEEN 3 AND 254')
// Email is unique compared case-insensitively: UNIQUE (lower(email)), an expression index
// TypeORM cannot express, so it leaves it alone (it exists: migration 1764200000000).
@Index('users_email_lower_key', { synchronize: false })
@Index('users_account_idx', ['accountId'])
export class UserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @ForeignKey(() => AccountEntity, { name: 'users_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  /** Trimmed, in the case it was given. */
  @Column({ type: 'text' })
  email: string;

  /** Self-describing scrypt hash (`scrypt$<log2 N>$<r>$<p>$<salt>$<key>`); never shown. */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_sign_in_at', type: 'timestamptz', nullable: true })
  lastSignInAt: Date | null;

  @Column({ name: 'password_changed_at', type: 'timestamptz', default: () => 'now()' })
  passwordChangedAt: Date;
}
