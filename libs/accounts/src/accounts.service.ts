import { Injectable } from '@nestjs/common';
import { AccountEntity } from '@app/database';
import { Limits, PlanName, hasApiAccess, resolveLimits } from '@app/plans';
import { AccountSearchPage, AccountsRepository } from './accounts.repository';
import { KeyCacheInvalidation } from './key-cache-invalidation';

/**
 * Accounts: creation, lookup, plan and override changes, limits in force. What an account
 * has used is counted by billing (UsageService in the API puts it together).
 */
@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly keyCache: KeyCacheInvalidation,
  ) {}

  create(name: string, plan: PlanName): Promise<AccountEntity> {
    return this.accounts.create(name, plan);
  }

  find(id: number): Promise<AccountEntity | null> {
    return this.accounts.find(id);
  }

  /** Accounts by name or user e-mail (case-insensitive substring), newest first; admin API. */
  search(text: string | null, limit: number, offset: number): Promise<AccountSearchPage> {
    return this.accounts.search(text, limit, offset);
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
   * Something cached per account changed (its usage-alert settings): every instance drops the
   * account's cached callers and what follows them (KeyCacheInvalidation.follow), within a
   * second.
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
}
