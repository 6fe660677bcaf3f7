import { PLANS, resolveLimits } from './plans';

describe('plans', () => {
  it('uses the spec values for monthly calls and per-minute rates', () => {
    expect(PLANS.pro.limits.api_calls_per_month).toBe(20);
    expect(PLANS.pro.limits.requests_per_minute).toBe(20);
    expect(PLANS.agency.limits.api_calls_per_month).toBe(100);
    expect(PLANS.agency.limits.requests_per_minute).toBe(60);
    expect(PLANS.free.apiAccess).toBe(false);
    expect(PLANS.starter.apiAccess).toBe(false);
  });

  it('applies overrides and leaves the plan table untouched', () => {
    const limits = resolveLimits('pro', {
      requests_per_minute: 5,
      api_calls_per_month: 'unlimited',
    });
    expect(limits.requests_per_minute).toBe(5);
    expect(limits.api_calls_per_month).toBe('unlimited');
    expect(limits.backlinks_per_month).toBe(PLANS.pro.limits.backlinks_per_month);
    expect(PLANS.pro.limits.requests_per_minute).toBe(20);
  });
});
