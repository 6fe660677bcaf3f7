/** The rolling page budget counts pages of audits started in the last 30 days. */
export const PAGE_BUDGET_WINDOW_DAYS = 30;
const WINDOW_MS = PAGE_BUDGET_WINDOW_DAYS * 86_400_000;

export function pageBudgetWindowStart(now: Date): Date {
  return new Date(now.getTime() - WINDOW_MS);
}

/**
 * How many pages a new crawl may fetch: the request, capped by the plan's per-crawl limit and
 * by what is left of the rolling budget. Below 1 means the crawl cannot start.
 */
export function effectiveMaxPages(
  requested: number,
  perCrawl: number,
  budget: number,
  used: number,
): number {
  return Math.max(0, Math.min(requested, perCrawl, budget - used));
}

/**
 * When at least one page of the rolling budget becomes free again: the ledger rows (inside
 * the window, oldest first) leave the window one by one, 30 days after they were created.
 * Null when nothing in the window can free a page (e.g. a budget of 0).
 */
export function pageBudgetResetsAt(
  rows: Array<{ createdAt: Date; pages: number }>,
  budget: number,
  used: number,
): Date | null {
  let remainingUsed = used;
  for (const row of [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
    if (row.pages <= 0) continue;
    remainingUsed -= row.pages;
    if (budget - remainingUsed >= 1) return new Date(row.createdAt.getTime() + WINDOW_MS);
  }
  return null;
}
