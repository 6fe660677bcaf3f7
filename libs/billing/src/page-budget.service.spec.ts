import type { BudgetDb, PageBudgetRepository } from './page-budget.repository';
import { PageBudgetService } from './page-budget.service';

const tx = {} as BudgetDb;
const DAY = 86_400_000;

/** A ledger that answers `used` pages and the given window rows. */
function setup(used: number, rows: Array<{ createdAt: Date; pages: number }> = []) {
  const repo = {
    used: jest.fn(async () => used),
    windowRows: jest.fn(async () => rows),
  };
  const service = new PageBudgetService(
    repo as Partial<PageBudgetRepository> as PageBudgetRepository,
  );
  return { service, repo };
}

const request = { accountId: 7, requested: 100, perCrawl: 50, budget: 120, at: null };

describe('PageBudgetService.allowance', () => {
  it('grants the request capped by the per-crawl limit and what is left of the budget, read on the transaction', async () => {
    const { service, repo } = setup(0);
    expect(await service.allowance(request, tx)).toEqual({ ok: true, maxPages: 50 });
    expect(repo.used).toHaveBeenCalledWith(7, 30, null, tx);
    expect(await setup(100).service.allowance(request, tx)).toEqual({ ok: true, maxPages: 20 });
  });

  it('a per-crawl limit of 0 refuses before reading the ledger', async () => {
    const { service, repo } = setup(0);
    expect(await service.allowance({ ...request, perCrawl: 0 }, tx)).toEqual({
      ok: false,
      quota: 'site_audit_pages_per_crawl',
      limit: 0,
    });
    expect(repo.used).not.toHaveBeenCalled();
  });

  it('a used-up budget refuses with the used pages and when a page is free again', async () => {
    const oldest = new Date('2026-11-01T00:00:00Z');
    const { service, repo } = setup(120, [
      { createdAt: oldest, pages: 20 },
      { createdAt: new Date('2026-11-10T00:00:00Z'), pages: 100 },
    ]);
    expect(await service.allowance(request, tx)).toEqual({
      ok: false,
      quota: 'site_audit_rolling_page_budget',
      limit: 120,
      used: 120,
      resetsAt: new Date(oldest.getTime() + 30 * DAY),
    });
    expect(repo.windowRows).toHaveBeenCalledWith(7, 30, null, tx);
  });
});
