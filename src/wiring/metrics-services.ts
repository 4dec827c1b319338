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

/**
 * The instruments over the database's pool. `fromPrimary`: a worker of `serve`, whose /metrics
 * answers for every worker of the node (gathered by the primary).
 */
export function buildMetricsServices(database: Database, fromPrimary: boolean): MetricsServices {
  const metrics = new ServiceMetrics({ poolStats: database.poolStats, fromPrimary });
  return { metrics, usageHistory: new UsageHistory({ exposition: metrics.exposition }) };
}
