import { Injectable } from '@nestjs/common';
import { Clock, monthStart, nextMonthStart, plainDate } from '@app/core';
import { AccountsService } from '@app/accounts';
import { CallMeterService, FeatureQuotaService } from '@app/billing';
import type { AccountEntity } from '@app/database';
import type { Limits, PlanName } from '@app/plans';
import { SiteAuditJobsService } from '@app/site-audit';

/** What an account has used, under the same names as its limits (plus credits). */
export interface AccountUsage {
  api_calls_per_month: number;
  keyword_research_per_month: number;
  backlinks_per_month: number;
  site_audit_crawls_per_month: number;
  credits: number;
}

/** The data of GET /api/v1/usage (and the first members of GET /account/v1/usage). */
export interface UsageRecord {
  plan: string;
  api_calls_used: number;
  api_calls_limit: number;
  unlimited: boolean;
  resets_at: string;
}

/** A feature quota: what is used of what the plan (with overrides) allows. */
interface QuotaFigure {
  used: number;
  limit: number;
}

/** The account area's usage view: the /api/v1/usage members plus quotas and credits. */
export interface AccountUsageRecord extends UsageRecord {
  api_access: boolean;
  credits: number;
  quotas: {
    keyword_research_per_month: QuotaFigure;
    backlinks_per_month: QuotaFigure;
    site_audit_crawls_per_month: QuotaFigure;
    site_audit_rolling_page_budget: QuotaFigure;
  };
}

/**
 * The usage figures, computed once for both views: GET /api/v1/usage (the meter state after
 * this call, from the metering guard) and GET /account/v1/usage (the meter read, no call
 * counted).
 */
@Injectable()
export class UsageService {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountsService,
    private readonly meter: CallMeterService,
    private readonly quotas: FeatureQuotaService,
    private readonly siteAuditJobs: SiteAuditJobsService,
  ) {}

  /**
   * What an account has used, each under the name of its limit: calls and feature quotas
   * this month (billing's meter and quotas), credits (the account), and the rolling page
   * budget (the site-audit jobs).
   */
  async usedBy(
    account: AccountEntity,
  ): Promise<AccountUsage & { site_audit_rolling_page_budget: number }> {
    const [used, pages] = await Promise.all([
      this.usage(account),
      this.siteAuditJobs.pagesUsed(account.id, this.clock.now()),
    ]);
    return { ...used, site_audit_rolling_page_budget: pages };
  }

  /** Calls and feature quotas used this month, and the credit balance. */
  private async usage(account: AccountEntity): Promise<AccountUsage> {
    const now = this.clock.now();
    const [calls, features] = await Promise.all([
      this.meter.used(account.id, now),
      this.quotas.usedThisMonth(account.id, now),
    ]);
    return {
      api_calls_per_month: calls,
      keyword_research_per_month: features.keyword_research,
      backlinks_per_month: features.backlinks,
      site_audit_crawls_per_month: features.site_audit_crawls,
      credits: account.credits,
    };
  }

  /** Calls used of this month's allowance and the reset date; `period_start` for meta. */
  calls(
    plan: PlanName,
    limits: Limits,
    used: number,
    now = this.clock.now(),
  ): { record: UsageRecord; periodStart: string } {
    const limit = limits.api_calls_per_month;
    return {
      record: {
        plan: plan.toLowerCase(),
        api_calls_used: used,
        api_calls_limit: limit === 'unlimited' ? 0 : limit,
        unlimited: limit === 'unlimited',
        resets_at: plainDate(nextMonthStart(now)),
      },
      periodStart: plainDate(monthStart(now)),
    };
  }

  /**
   * An account's usage without counting a call: the same call figures, plus each feature
   * quota (used of limit), the credit balance and whether the plan has API access. Null
   * when the account does not exist.
   */
  async ofAccount(
    accountId: number,
  ): Promise<{ record: AccountUsageRecord; periodStart: string } | null> {
    const account = await this.accounts.find(accountId);
    if (!account) return null;
    const now = this.clock.now();
    const limits = this.accounts.limitsOf(account);
    const used = await this.usedBy(account);
    const { record, periodStart } = this.calls(account.plan, limits, used.api_calls_per_month, now);
    const quota = (name: keyof AccountUsageRecord['quotas']): QuotaFigure => ({
      used: used[name],
      limit: limits[name],
    });
    return {
      record: {
        ...record,
        api_access: this.accounts.hasApiAccess(account),
        credits: used.credits,
        quotas: {
          keyword_research_per_month: quota('keyword_research_per_month'),
          backlinks_per_month: quota('backlinks_per_month'),
          site_audit_crawls_per_month: quota('site_audit_crawls_per_month'),
          site_audit_rolling_page_budget: quota('site_audit_rolling_page_budget'),
        },
      },
      periodStart,
    };
  }
}
