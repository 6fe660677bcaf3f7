import { Injectable } from '@nestjs/common';
import { AccountsService } from '@app/accounts';
import { AccountEntity } from '@app/database';
import { OAuthGrantsService } from '@app/oauth';
import type { UpdateAccountDto } from './dto/account.dto';

/**
 * The operator's account changes and their rules. libs/accounts changes the plan, and
 * libs/oauth (which imports libs/accounts) owns the grants, so the rule that joins them, a
 * plan change's effect on OAuth grants, lives here, above both.
 */
@Injectable()
export class AdminAccountsService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly grants: OAuthGrantsService,
  ) {}

  /**
   * Changes plan, name or limit overrides (null removes an override; absent members are
   * kept). A plan without API access ends the account's OAuth grants (hosted MCP
   * connections): they do not come back with an upgrade. Repeating the change repeats this
   * (idempotent). Null when there is no such account.
   */
  async update(id: number, patch: UpdateAccountDto): Promise<AccountEntity | null> {
    const overrides = patch.overrides
      ? Object.fromEntries(Object.entries(patch.overrides).filter(([, v]) => v !== undefined))
      : undefined;
    const account = await this.accounts.update(id, {
      name: patch.name,
      plan: patch.plan,
      overrides,
    });
    if (account && patch.plan !== undefined && !this.accounts.hasApiAccess(account)) {
      await this.grants.endAccountGrants(id);
    }
    return account;
  }
}
