import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { StoreName } from '../errors/app-error.ts';
import { metricsFromPrimary } from './cluster-metrics.ts';
import { registerDatabaseGauges } from './database-gauges.ts';
import { EventMetrics } from './event-metrics.ts';
import { MailMetrics } from './mail-metrics.ts';
import { RenditionMetrics } from './rendition-metrics.ts';

/** What a metadata store can say about its connections (PostgreSQL's pool; SQLite has none). */
export type PoolStats = { total: number; idle: number; waiting: number };

/**
 * The process's Prometheus instruments (prom-client), in a registry of its own rather than
 * prom-client's global one, so two servers in one process (tests) do not share counts.
 * Labels are bounded: a route is its pattern (`/api/v1/file/:fileId`), never the URL.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #duration: Histogram<'method' | 'route'>;
  readonly #uploadedBytes: Counter;
  readonly #downloadedBytes: Counter;
  readonly #verified: Counter;
  readonly #links: Counter<'kind'>;
  readonly #storeErrors: Counter<'store' | 'code'>;
  /** Image renditions (issue 21). */
  readonly renditions: RenditionMetrics;
  /** Events and webhooks (issue 22). */
  readonly events: EventMetrics;
  /** Outgoing mail (issue 23). */
  readonly mail: MailMetrics;
  /** The text a scrape gets: this process's registry, or (a worker of `serve`) the whole node's. */
  readonly exposition: () => Promise<string>;

  constructor(options: { poolStats?: () => PoolStats; fromPrimary?: boolean } = {}) {
    this.exposition = options.fromPrimary ? metricsFromPrimary(this.registry) : () => this.registry.metrics();
    const registers = [this.registry];
    this.renditions = new RenditionMetrics(this.registry);
    this.events = new EventMetrics(this.registry);
    this.mail = new MailMetrics(this.registry);
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
    this.#requests = new Counter({
      name: 'coffer_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.#duration = new Histogram({
      name: 'coffer_http_request_duration_seconds',
      help: 'Time from request to the end of the answer, by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.#uploadedBytes = new Counter({
      name: 'coffer_uploaded_bytes_total',
      help: 'Bytes the gateway stored from uploads (committed to the blob store)',
      registers,
    });
    this.#downloadedBytes = new Counter({
      name: 'coffer_downloaded_bytes_total',
      help: 'Bytes the gateway served in completed downloads (S3 links bypass it)',
      registers,
    });
    this.#verified = new Counter({
      name: 'coffer_uploads_verified_total',
      help: 'Uploads verified (a file becomes readable)',
      registers,
    });
    this.#links = new Counter({
      name: 'coffer_links_issued_total',
      help: 'Signed links issued, by kind (upload, download, rendition)',
      labelNames: ['kind'],
      registers,
    });
    this.#storeErrors = new Counter({
      name: 'coffer_store_errors_total',
      help: 'Requests failed by a store: UNAVAILABLE (unreachable) or STORAGE_FULL, by store',
      labelNames: ['store', 'code'],
      registers,
    });
    const poolStats = options.poolStats;
    if (poolStats) {
      new Gauge({
        name: 'coffer_database_pool_connections',
        help: 'Database pool connections by state (in use, idle) and requests waiting for one',
        labelNames: ['state'],
        registers,
        collect() {
          const stats = poolStats();
          this.set({ state: 'in_use' }, stats.total - stats.idle);
          this.set({ state: 'idle' }, stats.idle);
          this.set({ state: 'waiting' }, stats.waiting);
        },
      });
    }
  }

  /**
   * Resumable uploads still receiving bytes, and the bytes they hold, read from the database
   * at each scrape: the whole deployment's, so every worker reports the same (`max`, not a sum).
   */
  watchResumableUploads(measure: () => Promise<{ uploads: number; bytes: number }>): void {
    registerDatabaseGauges(this.registry, measure, [
      ['coffer_resumable_uploads_in_progress', 'Resumable uploads receiving bytes (all nodes)', 'uploads'],
      [
        'coffer_resumable_upload_bytes_in_progress',
        'Bytes held by unfinished resumable uploads (all nodes)',
        'bytes',
      ],
    ]);
  }

  request(method: string, route: string, status: number, seconds: number): void {
    this.#requests.inc({ method, route, status: String(status) });
    this.#duration.observe({ method, route }, seconds);
  }

  uploaded(bytes: number): void {
    this.#uploadedBytes.inc(bytes);
  }

  downloaded(bytes: number): void {
    this.#downloadedBytes.inc(bytes);
  }

  verified(): void {
    this.#verified.inc();
  }

  linkIssued(kind: 'upload' | 'download' | 'rendition'): void {
    this.#links.inc({ kind });
  }

  storeFailed(store: StoreName, code: 'UNAVAILABLE' | 'STORAGE_FULL'): void {
    this.#storeErrors.inc({ store, code });
  }
}
