import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/core';
import { PlanName, queryRows } from '@app/database';
import {
  CallMeterService,
  FeatureQuotaService,
  LimitOverrides,
  Limits,
  resolveLimits,
} from '@app/billing';

export interface AccountRow {
  id: number;
  name: string;
  plan: PlanName;
  credits: number;
  overrides: LimitOverrides;
  created_at: Date;
  updated_at: Date;
}

/** What an account has used, under the same names as its limits (plus credits). */
export interface AccountUsage {
  api_calls_per_month: number;
  keyword_research_per_month: number;
  backlinks_per_month: number;
  site_audit_crawls_per_month: number;
  credits: number;
  [extra: string]: number;
}

/** Contributes extra members to an account's usage (e.g. the rolling page budget). */
export interface UsageContributor {
  contribute(accountId: number, now: Date): Promise<Record<string, number>>;
}

@Injectable()
export class AccountsService {
  private readonly contributors: UsageContributor[] = [];

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly meter: CallMeterService,
    private readonly quotas: FeatureQuotaService,
    private readonly clock: Clock,
  ) {}

  /** Features that keep their own usage (site audits) register here at module init. */
  registerUsageContributor(c: UsageContributor): void {
    this.contributors.push(c);
  }

  async create(name: string, plan: PlanName): Promise<AccountRow> {
    const rows: AccountRow[] = await this.db.query(
      `INSERT INTO accounts (name, plan) VALUES ($1, $2)
       RETURNING id, name, plan, credits, overrides, created_at, updated_at`,
      [name, plan],
    );
    return rows[0];
  }

  async find(id: number): Promise<AccountRow | null> {
    const rows: AccountRow[] = await this.db.query(
      `SELECT id, name, plan, credits, overrides, created_at, updated_at FROM accounts WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  async findByName(name: string): Promise<AccountRow | null> {
    const rows: AccountRow[] = await this.db.query(
      `SELECT id, name, plan, credits, overrides, created_at, updated_at FROM accounts
       WHERE name = $1 ORDER BY id LIMIT 1`,
      [name],
    );
    return rows[0] ?? null;
  }

  /**
   * Changes plan, name and overrides in one statement. An override set to null is removed
   * (back to the plan's value); members not mentioned are kept.
   */
  async update(
    id: number,
    patch: {
      name?: string;
      plan?: PlanName;
      overrides?: Record<string, number | 'unlimited' | null>;
    },
  ): Promise<AccountRow | null> {
    const set = Object.fromEntries(
      Object.entries(patch.overrides ?? {}).filter(([, v]) => v !== null),
    );
    const removed = Object.entries(patch.overrides ?? {})
      .filter(([, v]) => v === null)
      .map(([k]) => k);
    const rows = await queryRows<AccountRow>(
      this.db,
      `UPDATE accounts SET
         name = COALESCE($2, name),
         plan = COALESCE($3, plan),
         overrides = (overrides - $5::text[]) || $4::jsonb,
         updated_at = now()
       WHERE id = $1
       RETURNING id, name, plan, credits, overrides, created_at, updated_at`,
      [id, patch.name ?? null, patch.plan ?? null, JSON.stringify(set), removed],
    );
    return rows[0] ?? null;
  }

  limitsOf(account: AccountRow): Limits {
    return resolveLimits(account.plan, account.overrides);
  }

  async usage(account: AccountRow): Promise<AccountUsage> {
    const now = this.clock.now();
    const [calls, features, ...extras] = await Promise.all([
      this.meter.used(account.id, now),
      this.quotas.usedThisMonth(account.id, now),
      ...this.contributors.map((c) => c.contribute(account.id, now)),
    ]);
    return Object.assign(
      {
        api_calls_per_month: calls,
        keyword_research_per_month: features.keyword_research,
        backlinks_per_month: features.backlinks,
        site_audit_crawls_per_month: features.site_audit_crawls,
        credits: account.credits,
      },
      ...extras,
    ) as AccountUsage;
  }
}
