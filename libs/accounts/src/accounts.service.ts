import { Injectable } from '@nestjs/common';
import { Clock } from '@app/core';
import { AccountEntity, PlanName } from '@app/database';
import {
  CallMeterService,
  FeatureQuotaService,
  Limits,
  hasApiAccess,
  resolveLimits,
} from '@app/billing';
import { AccountsRepository } from './accounts.repository';
import { KeyCacheInvalidation } from './key-cache-invalidation';

/** What an account has used, under the same names as its limits (plus credits). */
export interface AccountUsage {
  api_calls_per_month: number;
  keyword_research_per_month: number;
  backlinks_per_month: number;
  site_audit_crawls_per_month: number;
  credits: number;
}

/** Accounts: creation, lookup, plan and override changes, limits in force and usage. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly meter: CallMeterService,
    private readonly quotas: FeatureQuotaService,
    private readonly clock: Clock,
    private readonly keyCache: KeyCacheInvalidation,
  ) {}

  create(name: string, plan: PlanName): Promise<AccountEntity> {
    return this.accounts.create(name, plan);
  }

  find(id: number): Promise<AccountEntity | null> {
    return this.accounts.find(id);
  }

  findByName(name: string): Promise<AccountEntity | null> {
    return this.accounts.findByName(name);
  }

  /**
   * Changes plan, name and overrides in one statement. An override set to null is removed
   * (back to the plan's value); members not mentioned are kept. A plan or override change
   * drops the account's keys from the key cache of every instance (within 1 s).
   */
  async update(
    id: number,
    patch: {
      name?: string;
      plan?: PlanName;
      overrides?: Record<string, number | 'unlimited' | null>;
    },
  ): Promise<AccountEntity | null> {
    const overrides = Object.entries(patch.overrides ?? {});
    const set = Object.fromEntries(
      overrides.filter((e): e is [string, number | 'unlimited'] => e[1] !== null),
    );
    const removed = overrides.filter(([, v]) => v === null).map(([k]) => k);
    const account = await this.accounts.update(
      id,
      patch.name ?? null,
      patch.plan ?? null,
      set,
      removed,
    );
    if (account && (patch.plan !== undefined || overrides.length > 0)) {
      await this.keyCache.accountChanged(id);
    }
    return account;
  }

  /**
   * Something cached with the account's keys changed (its usage-alert settings): every
   * instance drops the account's cached callers (within a second).
   */
  async callerSettingsChanged(accountId: number): Promise<void> {
    await this.keyCache.accountChanged(accountId);
  }

  /** Pro and Agency: keys can be made and the API used. */
  hasApiAccess(account: AccountEntity): boolean {
    return hasApiAccess(account.plan);
  }

  limitsOf(account: AccountEntity): Limits {
    return resolveLimits(account.plan, account.overrides);
  }

  async usage(account: AccountEntity): Promise<AccountUsage> {
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
}
