import { Injectable } from '@nestjs/common';
import { Clock, monthAfter } from '@app/core';
import { AccountsService } from '@app/accounts';
import { CallMeterService, FeatureQuotaService, PageBudgetService } from '@app/billing';
import type { AccountEntity } from '@app/database';
import { GscConnectRepository } from '../gsc-connect/gsc-connect.repository';
import type { Limits, PlanName } from '@app/plans';
import type { UsageRecord } from './usage.schema';
import { RankRepository } from '../rank/rank.repository';
import { AiProjectsRepository } from '../ai-visibility/ai-projects.repository';

/** What an account has used, under the same names as its limits (plus credits). */
export interface AccountUsage {
  api_calls_per_month: number;
  keyword_research_per_month: number;
  backlinks_per_month: number;
  site_audit_crawls_per_month: number;
  /** Keywords tracked now, all rank projects (a standing count, not a monthly one). */
  tracked_keywords: number;
  /** AI-visibility projects now (a standing count). */
  ai_visibility_projects: number;
  /** The most prompts one of its AI-visibility projects holds now. */
  ai_visibility_prompts_per_project: number;
  credits: number;
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
    tracked_keywords: QuotaFigure;
    ai_visibility_projects: QuotaFigure;
    ai_visibility_prompts_per_project: QuotaFigure;
    gsc_properties: QuotaFigure;
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
    private readonly pageBudget: PageBudgetService,
    private readonly rank: RankRepository,
    private readonly aiProjects: AiProjectsRepository,
    private readonly gsc: GscConnectRepository,
  ) {}

  /**
   * What an account has used, each under the name of its limit: calls and feature quotas
   * this month (billing's meter and quotas, in PostgreSQL's month), credits (the account),
   * the rolling page budget (billing's page budget of site-audit crawls), the keywords
   * tracked now (all rank projects), the AI-visibility projects now and the most prompts one
   * of them holds, and the Search Console properties kept (docs/gsc-connect.md).
   */
  async usedBy(
    account: AccountEntity,
  ): Promise<AccountUsage & { site_audit_rolling_page_budget: number; gsc_properties: number }> {
    const { used } = await this.usedWithMonth(account);
    return used;
  }

  /** `usedBy` and the month its counts are of (PostgreSQL's, YYYY-MM-DD). */
  private async usedWithMonth(account: AccountEntity): Promise<{
    used: AccountUsage & { site_audit_rolling_page_budget: number; gsc_properties: number };
    periodStart: string;
  }> {
    const at = this.clock.statementTime();
    const [calls, features, pages, tracked, aiProjects, aiPrompts, gsc] = await Promise.all([
      this.meter.used(account.id, at),
      this.quotas.usedThisMonth(account.id, at),
      this.pageBudget.used(account.id, at),
      this.rank.trackedKeywordsUsed(account.id),
      this.aiProjects.projectsUsed(account.id),
      this.aiProjects.largestPromptCount(account.id),
      this.gsc.propertyCount(account.id),
    ]);
    return {
      used: {
        api_calls_per_month: calls.used,
        keyword_research_per_month: features.keyword_research,
        backlinks_per_month: features.backlinks,
        site_audit_crawls_per_month: features.site_audit_crawls,
        tracked_keywords: tracked,
        ai_visibility_projects: aiProjects,
        ai_visibility_prompts_per_project: aiPrompts,
        credits: account.credits,
        site_audit_rolling_page_budget: pages,
        gsc_properties: gsc,
      },
      periodStart: calls.periodStart,
    };
  }

  /**
   * Calls used of this month's allowance and the reset date (the first of the month after
   * `periodStart`, the meter's month: PostgreSQL's); `period_start` for meta.
   */
  calls(
    plan: PlanName,
    limits: Limits,
    used: number,
    periodStart: string,
  ): { record: UsageRecord; periodStart: string } {
    const limit = limits.api_calls_per_month;
    return {
      record: {
        plan: plan.toLowerCase(),
        api_calls_used: used,
        api_calls_limit: limit === 'unlimited' ? 0 : limit,
        unlimited: limit === 'unlimited',
        resets_at: monthAfter(periodStart),
      },
      periodStart,
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
    const limits = this.accounts.limitsOf(account);
    const { used, periodStart: month } = await this.usedWithMonth(account);
    const { record, periodStart } = this.calls(
      account.plan,
      limits,
      used.api_calls_per_month,
      month,
    );
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
          tracked_keywords: quota('tracked_keywords'),
          ai_visibility_projects: quota('ai_visibility_projects'),
          ai_visibility_prompts_per_project: quota('ai_visibility_prompts_per_project'),
          gsc_properties: quota('gsc_properties'),
        },
      },
      periodStart,
    };
  }
}
