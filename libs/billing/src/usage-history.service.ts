import { Injectable, Logger } from '@nestjs/common';
import { Clock, PeriodicTask, addDays, monthStart, plainDate } from '@app/core';
import { UsageHistoryRepository, UsageSummaryRow } from './usage-history.repository';

/** How far back the history goes: 13 calendar months before the current one's start. */
const USAGE_HISTORY_MONTHS = 13;
/** The longest window one read may ask for. */
export const USAGE_HISTORY_MAX_DAYS = 400;

export interface UsageDay {
  date: string;
  calls: number;
  research: number;
  your_data: number;
  other: number;
}

interface UsageCaller {
  /** The key's id, or the hosted-MCP connection's id when `prefix` is null. */
  id: number;
  label: string;
  prefix: string | null;
  calls: number;
}

export interface UsageEndpoint {
  endpoint: string;
  calls: number;
}

/** The data of GET /account/v1/usage/history (and the admin twin). */
export interface UsageHistory {
  from: string;
  to: string;
  days: UsageDay[];
  keys: UsageCaller[];
  endpoints: UsageEndpoint[];
}

const GROUP_MEMBER: Record<string, 'research' | 'your_data' | 'other'> = {
  research: 'research',
  'your-data': 'your_data',
  other: 'other',
};

/** Most calls first; ties by name (or id), so the order is stable. */
const byCalls =
  <T extends { calls: number }>(key: (x: T) => string | number) =>
  (a: T, b: T) =>
    b.calls - a.calls || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/**
 * The usage history of an account: what the monthly meter counted, by day and cost group,
 * by key or hosted-MCP connection, and by endpoint (docs/usage-history.md).
 */
@Injectable()
export class UsageHistoryService {
  constructor(
    private readonly repo: UsageHistoryRepository,
    private readonly clock: Clock,
  ) {}

  /** The last `days` days to today (UTC), zeros included. */
  async history(accountId: number, days: number): Promise<UsageHistory> {
    const today = this.clock.now();
    const to = plainDate(today);
    const from = plainDate(addDays(today, -(days - 1)));
    return shapeHistory(await this.repo.summary(accountId, from, to), from, to, days, today);
  }

  /** Calls of each key of the account in the current calendar month (the console). */
  callsPerKeyThisMonth(accountId: number): Promise<Map<number, number>> {
    const now = this.clock.now();
    return this.repo.callsPerKey(accountId, plainDate(monthStart(now)), plainDate(now));
  }
}

/** The history's answer from the rows of UsageHistoryRepository.summary. */
export function shapeHistory(
  rows: UsageSummaryRow[],
  from: string,
  to: string,
  days: number,
  today: Date,
): UsageHistory {
  const { byDate, dayList } = emptyDays(days, today);
  const keys: UsageCaller[] = [];
  const endpoints: UsageEndpoint[] = [];
  for (const r of rows) {
    if (r.by === 'day') {
      const day = byDate.get(r.day!);
      const member = GROUP_MEMBER[r.cost_group!];
      if (!day || !member) continue;
      day[member] += r.calls;
      day.calls += r.calls;
    } else if (r.by === 'caller') {
      keys.push(callerOf(r));
    } else {
      endpoints.push({ endpoint: r.endpoint!, calls: r.calls });
    }
  }
  keys.sort(byCalls((k) => k.label));
  endpoints.sort(byCalls((e) => e.endpoint));
  return { from, to, days: dayList, keys, endpoints };
}

/** The last `days` days to `today`, oldest first, all zero, and the same days by date. */
function emptyDays(
  days: number,
  today: Date,
): { byDate: Map<string, UsageDay>; dayList: UsageDay[] } {
  const byDate = new Map<string, UsageDay>();
  const dayList: UsageDay[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const date = plainDate(addDays(today, -i));
    const day = { date, calls: 0, research: 0, your_data: 0, other: 0 };
    byDate.set(date, day);
    dayList.push(day);
  }
  return { byDate, dayList };
}

/** A caller row: an API key (key_id > 0) or a hosted-MCP connection. */
function callerOf(r: UsageSummaryRow): UsageCaller {
  if (r.key_id! > 0) {
    return {
      id: r.key_id!,
      label: r.key_label ?? `Key ${r.key_id}`,
      prefix: r.key_prefix,
      calls: r.calls,
    };
  }
  return {
    id: r.grant_id!,
    label: r.client_name ?? 'A connected app (since removed)',
    prefix: null,
    calls: r.calls,
  };
}

/** Events moved per roll-up statement. */
const ROLLUP_BATCH = 50_000;

/**
 * Moves the calls the meter appended (`usage_events`) into the daily history
 * (`usage_daily`), every 5 seconds in the worker, in batches of 50,000 until none is left.
 * Reads add the events not yet moved, so the history is exact before and after.
 */
@Injectable()
export class UsageEventsRollupService extends PeriodicTask<number> {
  protected readonly logger = new Logger(UsageEventsRollupService.name);
  protected readonly taskName = 'Usage history roll-up';
  protected readonly intervalMs = 5_000;

  constructor(private readonly repo: UsageHistoryRepository) {
    super();
  }

  protected async run(): Promise<number> {
    let moved = 0;
    for (;;) {
      const n = await this.repo.rollUp(ROLLUP_BATCH);
      moved += n;
      if (n < ROLLUP_BATCH) return moved;
    }
  }
}

/**
 * Keeps USAGE_HISTORY_MONTHS calendar months of usage history (and of the record of fired
 * alerts) before the current month: deletes older days in batches. Runs in the worker,
 * hourly (first round a minute after start).
 */
@Injectable()
export class UsageHistoryRetentionService extends PeriodicTask<number> {
  protected readonly logger = new Logger(UsageHistoryRetentionService.name);
  protected readonly taskName = 'Usage history retention';
  protected readonly intervalMs = 3_600_000;
  protected override readonly firstRunAfterMs = 60_000;

  constructor(
    private readonly repo: UsageHistoryRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  /** The first day kept: the first day of the month 13 months before the current one. */
  static cutoff(now: Date): string {
    const start = monthStart(now);
    return plainDate(
      new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - USAGE_HISTORY_MONTHS, 1)),
    );
  }

  protected async run(): Promise<number> {
    const cutoff = UsageHistoryRetentionService.cutoff(this.clock.now());
    let deleted = 0;
    for (;;) {
      const n = await this.repo.deleteBefore(cutoff, 10_000);
      deleted += n;
      if (n < 10_000) break;
    }
    await this.repo.deleteFiredBefore(cutoff);
    if (deleted > 0)
      this.logger.log(`Usage history retention: removed ${deleted} row(s) before ${cutoff}`);
    return deleted;
  }
}
