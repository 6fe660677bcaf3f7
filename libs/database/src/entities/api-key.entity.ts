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

/** An API key of an account. Schema: migration 1763700000000 (foundation). */
@Entity({ name: 'api_keys' })
@Unique('api_keys_key_hash_key', ['keyHash'])
@Index('api_keys_account_idx', ['accountId'])
export class ApiKeyEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @ForeignKey(() => AccountEntity, { name: 'api_keys_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ type: 'text' })
  label: string;

  /** The first characters of the key, shown to identify it. */
  @Column({ type: 'text' })
  prefix: string;

  /** SHA-256 (hex) of the secret; the secret itself is never stored. */
  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
