import {
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';
import { AccountEntity } from './account.entity';
import { UserEntity } from './user.entity';

/**
 * A signed-in session of a user. Only the SHA-256 (hex) of its random token is stored.
 * Schema: migration 1764200000000 (users-sessions).
 */
@Entity({ name: 'sessions' })
@Unique('sessions_token_hash_key', ['tokenHash'])
@Index('sessions_user_idx', ['userId'])
@Index('sessions_account_idx', ['accountId'])
export class SessionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @ForeignKey(() => UserEntity, { name: 'sessions_user_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @ForeignKey(() => AccountEntity, { name: 'sessions_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Last use (refreshed at most once a minute); idle expiry counts from here. */
  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt: Date;

  /** Absolute expiry (creation + 7 days). */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
