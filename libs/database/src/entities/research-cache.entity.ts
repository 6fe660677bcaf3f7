import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

export type ResearchKind = 'backlinks' | 'keyword_research';

/**
 * Provider answers per account, kind and request key, served while fresh. Schema:
 * migration 1763900000000 (research).
 */
@Entity({ name: 'research_cache' })
@Check('research_cache_kind_check', `kind IN ('backlinks', 'keyword_research')`)
@Check('research_cache_cache_key_check', 'length(cache_key) BETWEEN 1 AND 1000')
// The purge of expired rows reads by age.
@Index('research_cache_fetched_idx', ['fetchedAt'])
export class ResearchCacheEntity {
  @ForeignKey(() => AccountEntity, { name: 'research_cache_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  @PrimaryColumn({ type: 'text' })
  kind: ResearchKind;

  @PrimaryColumn({ name: 'cache_key', type: 'text' })
  cacheKey: string;

  @Column({ type: 'text' })
  provider: string;

  @Column({ type: 'jsonb' })
  payload: unknown;

  @Column({ name: 'fetched_at', type: 'timestamptz' })
  fetchedAt: Date;
}
