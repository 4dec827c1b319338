import { openBlobStore } from '../blob-stores/open-blob-store.ts';
import type { Config } from '../config/config.ts';
import type { CollectionReport, StrayKind } from '../domain/files/blob-collector.ts';
import { createBlobCollector } from '../wiring/background-jobs.ts';
import { openStores } from '../wiring/open-stores.ts';

/**
 * `coffer gc [--apply]`: finds what is stray in the blob store (see BlobCollector) and, with
 * --apply, removes it. Safe while servers run on the same stores, and next to their own
 * periodic collection: every decision rests on the file records and the grace period.
 */
export async function collectGarbage(config: Config, options: { apply: boolean }): Promise<CollectionReport> {
  const { database, repositories } = await openStores(config, (line) => console.error(line));
  const blobs = await openBlobStore(config.storageUrl);
  try {
    const collector = createBlobCollector(config, { repositories, blobs });
    return await collector.collect({ apply: options.apply });
  } finally {
    await database.close();
    if ('close' in blobs && typeof blobs.close === 'function') await blobs.close();
  }
}

const labels: Record<StrayKind, string> = {
  version: 'unreferenced blob versions',
  staging: 'staging objects of direct uploads',
  'temp-file': 'temp files of writers that are gone',
  'multipart-upload': 'incomplete multipart uploads',
};

/** The report for people: totals per kind, then one line per stray item. */
export function toGcText(report: CollectionReport): string {
  const strays = Object.values(report.stray).reduce((sum, kind) => sum + kind.count, 0);
  const lines = [
    report.applied
      ? `Removed ${report.removed} of ${strays} stray items${report.failed ? ` (${report.failed} failed; run again)` : ''}.`
      : `Dry run: ${strays} stray items, nothing removed (run with --apply to remove them).`,
    ...Object.entries(report.stray).map(
      ([kind, { count, bytes }]) => `  ${count} ${labels[kind as StrayKind]} (${bytes} bytes)`,
    ),
    `Scanned ${report.scannedObjects} stored objects; grace period ${report.graceSeconds} s.`,
    ...report.items.map(
      (item) =>
        `${item.kind}\t${item.name}\t${item.sizeBytes ?? '-'} bytes\t${item.since.toISOString()}\t${item.reason}`,
    ),
  ];
  if (report.itemsTruncated) lines.push(`(only the first ${report.items.length} items are listed)`);
  return lines.join('\n');
}
