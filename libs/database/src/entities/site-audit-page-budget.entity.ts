import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';
import { JobEntity } from './job.entity';

/**
 * The rolling page-budget ledger: one row per site-audit job, reconciled to pages crawled.
 * Schema: migration 1764000000000; statements in libs/billing (PageBudgetRepository).
 */
@Entity({ name: 'site_audit_page_budget' })
@Check('site_audit_page_budget_pages_reserved_check', 'pages_reserved >= 1')
@Check('site_audit_page_budget_check', 'pages >= 0 AND pages <= pages_reserved')
// The rolling 30-day sum per account, index-only: (account_id, created_at) INCLUDE (pages);
// TypeORM cannot express INCLUDE.
@Index('site_audit_page_budget_window_idx', { synchronize: false })
export class SiteAuditPageBudgetEntity {
  @ForeignKey(() => JobEntity, {
    name: 'site_audit_page_budget_job_id_fkey',
    onDelete: 'CASCADE',
  })
  @PrimaryColumn({ name: 'job_id', type: 'text' })
  jobId: string;

  @ForeignKey(() => AccountEntity, {
    name: 'site_audit_page_budget_account_id_fkey',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'pages_reserved', type: 'integer' })
  pagesReserved: number;

  @Column({ type: 'integer' })
  pages: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'reconciled_at', type: 'timestamptz', nullable: true })
  reconciledAt: Date | null;
}
