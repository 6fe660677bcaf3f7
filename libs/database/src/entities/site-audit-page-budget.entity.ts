import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The rolling page-budget ledger: one row per site-audit job, reconciled to pages crawled. */
@Entity({ name: 'site_audit_page_budget' })
export class SiteAuditPageBudgetEntity {
  @PrimaryColumn({ name: 'job_id', type: 'text' })
  jobId: string;

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
