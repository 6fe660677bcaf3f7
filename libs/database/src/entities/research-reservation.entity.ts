import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from './account.entity';
import type { ResearchKind } from './research-cache.entity';

type ReservationKind = 'quota' | 'credit';
type ReservationState = 'reserved' | 'committed' | 'refunded';

/**
 * The journal of quota units and credits taken before an upstream research call:
 * reserved → committed, or reserved → refunded. Schema: migration 1763900000000 (research).
 */
@Entity({ name: 'research_reservations' })
@Check('research_reservations_endpoint_check', `endpoint IN ('backlinks', 'keyword_research')`)
@Check('research_reservations_kind_check', `kind IN ('quota', 'credit')`)
@Check('research_reservations_amount_check', 'amount > 0')
@Check('research_reservations_state_check', `state IN ('reserved', 'committed', 'refunded')`)
@Check(
  'research_reservations_check',
  `kind = 'credit' OR (feature IS NOT NULL AND period_start IS NOT NULL)`,
)
// The sweeper's read path: stale open reservations, oldest first.
@Index('research_reservations_open_idx', ['createdAt'], { where: `state = 'reserved'` })
@Index('research_reservations_account_idx', ['accountId', 'id'])
export class ResearchReservationEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @ForeignKey(() => AccountEntity, {
    name: 'research_reservations_account_id_fkey',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'request_id', type: 'text' })
  requestId: string;

  @Column({ type: 'text' })
  endpoint: ResearchKind;

  @Column({ type: 'text' })
  kind: ReservationKind;

  @Column({ type: 'text', nullable: true })
  feature: string | null;

  @Column({ name: 'period_start', type: 'date', nullable: true })
  periodStart: string | null;

  @Column({ type: 'integer' })
  amount: number;

  @Column({ type: 'text' })
  state: ReservationState;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
