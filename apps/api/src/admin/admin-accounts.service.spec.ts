import type { AccountsService } from '@app/accounts';
import type { AccountEntity } from '@app/database';
import type { OAuthGrantsService } from '@app/oauth';
import { PlanName, hasApiAccess } from '@app/plans';
import { AdminAccountsService } from './admin-accounts.service';

/** An account service whose update answers the account with the plan it was given. */
function setup(current: PlanName | null) {
  let plan = current;
  const update = jest.fn(async (id: number, patch: { plan?: PlanName }) => {
    if (plan === null) return null;
    plan = patch.plan ?? plan;
    return { id, plan, overrides: {} } as unknown as AccountEntity;
  });
  const accounts: Pick<AccountsService, 'update' | 'hasApiAccess'> = {
    update,
    hasApiAccess: (a: AccountEntity) => hasApiAccess(a.plan),
  };
  const endAccountGrants = jest.fn(async () => 1);
  const grants: Pick<OAuthGrantsService, 'endAccountGrants'> = { endAccountGrants };
  const service = new AdminAccountsService(
    accounts as AccountsService,
    grants as OAuthGrantsService,
  );
  return { service, update, endAccountGrants };
}

describe('AdminAccountsService.update: a plan without API access ends the OAuth grants', () => {
  it('a downgrade to a plan without API access ends the account’s grants', async () => {
    const { service, endAccountGrants } = setup('pro');
    expect(hasApiAccess('free')).toBe(false);
    await service.update(7, { plan: 'free' });
    expect(endAccountGrants).toHaveBeenCalledWith(7);
  });

  it('a change to a plan that keeps API access ends nothing', async () => {
    const { service, endAccountGrants } = setup('pro');
    await service.update(7, { plan: 'agency' });
    expect(endAccountGrants).not.toHaveBeenCalled();
  });

  it('a change without a plan (name, overrides) ends nothing, even on a plan without access', async () => {
    const { service, endAccountGrants } = setup('free');
    await service.update(7, { name: 'renamed', overrides: { requests_per_minute: 5 } });
    expect(endAccountGrants).not.toHaveBeenCalled();
  });

  it('an unknown account: null, nothing ended', async () => {
    const { service, endAccountGrants } = setup(null);
    expect(await service.update(7, { plan: 'free' })).toBeNull();
    expect(endAccountGrants).not.toHaveBeenCalled();
  });

  it('absent override members are left out; null ones are passed on (removal)', async () => {
    const { service, update } = setup('pro');
    await service.update(7, {
      overrides: { requests_per_minute: null, backlinks_per_month: undefined },
    });
    expect(update).toHaveBeenCalledWith(7, {
      name: undefined,
      plan: undefined,
      overrides: { requests_per_minute: null },
    });
  });
});
