import { scheduleBlobCollection } from './domain/files/schedule-blob-collection.ts';
import type { Services } from './services.ts';

type Log = { info(details: object, message: string): void; warn(details: object, message: string): void };

/**
 * `serve`'s background collection of stray blobs (what crashes and failed deletes leave; see
 * docs/deploy.md): a pass at start, then every COFFER_GC_INTERVAL_SECONDS, in slices of a
 * few thousand entries. One worker per node runs it (the primary says which); passes of several
 * nodes are safe side by side.
 */
export function startBlobCollection(services: Services, log: Log): { stop(): Promise<void> } | undefined {
  if (services.config.gcIntervalSeconds === 0) return undefined;
  return scheduleBlobCollection({
    collector: services.collector,
    intervalSeconds: services.config.gcIntervalSeconds,
    maxObjectsPerSlice: 5000,
    slicePauseMs: 1000,
    onPassEnd: (report) => {
      if (report.removed === 0 && report.failed === 0) return;
      const { stray, removed, failed } = report;
      log.info({ stray, removed, failed }, 'removed stray blobs');
    },
    onError: (error) => log.warn({ err: error }, 'blob collection failed; retrying at the next interval'),
  });
}
