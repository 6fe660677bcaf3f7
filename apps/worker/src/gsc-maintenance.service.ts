import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock, PeriodicTask, plainDate } from '@app/core';
import { GscPartitionRepository, GscRetentionResult, monthStart } from '@app/database';

interface GscMaintenanceResult {
  /** Partitions created ahead (month starts). */
  created: string[];
  /** null when another worker held the partition lock (it did the retention). */
  retention: GscRetentionResult | null;
  /** The first month kept (YYYY-MM-01). */
  keptFrom: string;
}

/**
 * Search Console fact maintenance (docs/your-data.md, "Retention"). On start and then every
 * GSC_MAINTENANCE_INTERVAL_MS, every worker process:
 * 1. creates the `gsc_rows` partitions of this month and the next GSC_PARTITIONS_AHEAD
 *    months (ingestion creates any other month it needs on its own);
 * 2. applies retention: months that ended more than GSC_RETENTION_MONTHS (16, as Search
 *    Console) months ago are detached and dropped, and the rollups of those months deleted.
 * The DDL runs under a PostgreSQL transaction-scoped advisory lock, so concurrent workers
 * never collide (the one that does not get the lock skips retention this round).
 */
@Injectable()
export class GscMaintenanceService extends PeriodicTask<GscMaintenanceResult> {
  protected readonly logger = new Logger(GscMaintenanceService.name);
  protected readonly taskName = 'GSC partition maintenance';
  protected override readonly firstRunAfterMs = 1000;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly partitions: GscPartitionRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected get intervalMs(): number {
    return this.config.gscMaintenance.intervalMs;
  }

  protected async run(): Promise<GscMaintenanceResult> {
    const today = plainDate(this.clock.now());
    const { retentionMonths, partitionsAhead } = this.config.gscMaintenance;
    const ahead = Array.from({ length: partitionsAhead + 1 }, (_, i) => monthStart(today, i));
    const created = await this.partitions.ensureMonths(ahead);
    const keptFrom = monthStart(today, -retentionMonths);
    const retention = await this.partitions.dropMonthsBefore(keptFrom);
    if (created.length || retention?.dropped.length || retention?.rollupRowsDeleted) {
      this.logger.log(
        `GSC maintenance: created ${created.length} partition(s) ahead, dropped ${retention?.dropped.length ?? 0} month(s) before ${keptFrom}, deleted ${retention?.rollupRowsDeleted ?? 0} rollup row(s)`,
      );
    }
    return { created, retention, keptFrom };
  }
}
