import type { Clock } from '../domain/clock.ts';
import type { StorageUsageRepository } from '../domain/files/storage-usage-repository.ts';
import { registerProjectStorageGauges } from '../metrics/project-storage-gauges.ts';
import { ServiceMetrics } from '../metrics/service-metrics.ts';
import { UsageHistory } from '../metrics/usage-history.ts';
import type { Database } from '../persistence/database.ts';

/** What the node tells about itself. */
export type MetricsServices = {
  /** Prometheus instruments (GET /metrics). */
  metrics: ServiceMetrics;
  /** Samples of the traffic counters over the last day (the console's usage page). */
  usageHistory: UsageHistory;
};

/** Projects with series of their own in the per-project storage gauges (the largest by bytes). */
const maxProjectsMeasured = 100;

/**
 * The instruments over the database's pool and its storage usage. `fromPrimary`: a worker of
 * `serve`, whose /metrics answers for every worker of the node (gathered by the primary).
 */
export function buildMetricsServices(options: {
  database: Database;
  storageUsage: StorageUsageRepository;
  clock: Clock;
  fromPrimary: boolean;
}): MetricsServices {
  const { database, storageUsage, clock, fromPrimary } = options;
  const metrics = new ServiceMetrics({ poolStats: database.poolStats, fromPrimary });
  registerProjectStorageGauges(metrics.registry, {
    measure: () => storageUsage.listProjects(),
    maxProjects: maxProjectsMeasured,
    // As often as a usual scrape interval; the usage page's sampling also reads them each minute.
    refreshSeconds: 15,
    now: () => clock.now().getTime(),
  });
  return { metrics, usageHistory: new UsageHistory({ exposition: metrics.exposition }) };
}
