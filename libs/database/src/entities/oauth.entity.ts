import {
  Check,
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
 * An OAuth client of the hosted MCP connector: registered through RFC 7591 dynamic
 * registration (`kind` 'registered', a random `client_id`) or known by its Client ID Metadata
 * Document (`kind` 'metadata_document', `client_id` is the https URL of the document; the row
 * caches the document, refreshed after `fetched_at` + 1 hour). Public clients only: no secret.
 * Schema: migration 1764300000000 (oauth).
 */
@Entity({ name: 'oauth_clients' })
@Unique('oauth_clients_client_id_key', ['clientId'])
@Check('oauth_clients_kind_check', `kind IN ('registered', 'metadata_document')`)
export class OAuthClientEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'client_id', type: 'text' })
  clientId: string;

  @Column({ type: 'text' })
  kind: 'registered' | 'metadata_document';

  @Column({ name: 'client_name', type: 'text' })
  clientName: string;

  @Column({ name: 'redirect_uris', type: 'jsonb' })
  redirectUris: string[];

  /**
   * The optional informative RFC 7591 members (client_uri, logo_uri, software_id,
   * software_version, scope); name and redirect URIs are in their columns.
   */
  @Column({ type: 'jsonb' })
  metadata: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'fetched_at', type: 'timestamptz', nullable: true })
  fetchedAt: Date | null;
}

/**
 * One approval by a person: a client may act for the account with these scopes on this
 * resource. Its codes and tokens hang off it; revoking it (account area, refresh-token reuse,
 * code reuse) ends them all. Removing the user or the account removes it.
 */
@Entity({ name: 'oauth_grants' })
@Index('oauth_grants_account_idx', ['accountId'])
@Index('oauth_grants_user_idx', ['userId'])
@Index('oauth_grants_client_idx', ['clientPk'])
export class OAuthGrantEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @ForeignKey(() => UserEntity, { name: 'oauth_grants_user_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @ForeignKey(() => AccountEntity, { name: 'oauth_grants_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @ForeignKey(() => OAuthClientEntity, {
    name: 'oauth_grants_client_pk_fkey',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'client_pk', type: 'integer' })
  clientPk: number;

  @Column({ type: 'jsonb' })
  scopes: string[];

  /** The audience of the grant's tokens (RFC 8707): BASE/mcp. */
  @Column({ type: 'text' })
  resource: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}

/** An authorization code (only its SHA-256 is stored): at most 60 seconds, one use. */
@Entity({ name: 'oauth_codes' })
@Unique('oauth_codes_code_hash_key', ['codeHash'])
@Index('oauth_codes_grant_idx', ['grantId'])
export class OAuthCodeEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'code_hash', type: 'char', length: 64 })
  codeHash: string;

  @ForeignKey(() => OAuthGrantEntity, { name: 'oauth_codes_grant_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'grant_id', type: 'integer' })
  grantId: number;

  @Column({ name: 'code_challenge', type: 'text' })
  codeChallenge: string;

  @Column({ name: 'redirect_uri', type: 'text' })
  redirectUri: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/**
 * An access or refresh token of a grant (only its SHA-256 is stored). A refresh token is
 * used once (`used_at`): the rotation issues a new one; presenting a used one revokes the
 * grant.
 */
@Entity({ name: 'oauth_tokens' })
@Unique('oauth_tokens_token_hash_key', ['tokenHash'])
@Index('oauth_tokens_grant_idx', ['grantId'])
@Check('oauth_tokens_kind_check', `kind IN ('access', 'refresh')`)
export class OAuthTokenEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @ForeignKey(() => OAuthGrantEntity, { name: 'oauth_tokens_grant_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'grant_id', type: 'integer' })
  grantId: number;

  @Column({ type: 'text' })
  kind: 'access' | 'refresh';

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
