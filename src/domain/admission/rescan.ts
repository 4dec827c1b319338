import type { BlobStore } from '../blobs/blob-store.ts';
import { systemActor } from '../events/event.ts';
import type { FileQuarantine } from './file-quarantine.ts';
import type { QuarantineRepository, StoredVersion } from './quarantine-repository.ts';
import type { Scanner } from './scanner.ts';

/** Stored versions read from the database at a time: memory stays bounded whatever the project holds. */
const defaultPageSize = 100;

export type RescanOptions = {
  quarantine: Pick<QuarantineRepository, 'listStoredVersions'>;
  fileQuarantine: Pick<FileQuarantine, 'quarantine'>;
  blobs: Pick<BlobStore, 'get'>;
  scanner: Scanner;
};

/** A version a re-scan found infected. */
export type RescanHit = { fileId: string; versionId: string; signature: string; quarantined: boolean };

/** What a re-scan did; `resumeSince` when it stopped early (the version it could not scan). */
export type RescanReport = {
  projectId: string;
  since: string;
  scanned: number;
  scannedBytes: number;
  infected: RescanHit[];
  /** Versions not scanned: larger than the scanner takes, or bytes the store no longer has. */
  skipped: Array<{ fileId: string; versionId: string; reason: 'oversize' | 'missing' }>;
  /** Set when the scanner failed: run again with `--since` this (nothing before it is re-read). */
  resumeSince?: string;
  error?: string;
};

export type RescanRequest = {
  projectId: string;
  since: Date;
  /** Called after each version, with the bytes it read (progress). */
  onScanned?: (version: StoredVersion) => void;
  signal?: AbortSignal;
  /** Versions read a page (100 by default). */
  pageSize?: number;
};

/**
 * `coffer scan` (issue 42, item 2): every stored verified version of a project created since
 * `since` — current ones and earlier ones — streamed to the scanner, oldest first, one at a
 * time. A hit quarantines the file it belongs to (whichever version it was in). A scanner that
 * fails stops the run: the report says where to resume, so nothing is skipped unscanned.
 */
export async function rescanProject(o: RescanOptions, request: RescanRequest): Promise<RescanReport> {
  const report: RescanReport = {
    projectId: request.projectId,
    since: request.since.toISOString(),
    scanned: 0,
    scannedBytes: 0,
    infected: [],
    skipped: [],
  };
  // A copy serves its source's bytes: one verdict per stored blob found infected is enough.
  const infectedBlobs = new Map<string, string>();
  const pageSize = request.pageSize ?? defaultPageSize;
  let after: StoredVersion | undefined;
  for (;;) {
    const page = await o.quarantine.listStoredVersions({
      projectId: request.projectId,
      since: request.since,
      ...(after && { after: { createdAt: after.createdAt, versionId: after.versionId } }),
      limit: pageSize,
    });
    for (const version of page) {
      try {
        await scanOne(o, version, report, infectedBlobs, request.signal);
      } catch (error) {
        report.resumeSince = version.createdAt.toISOString();
        report.error = error instanceof Error ? error.message : String(error);
        return report;
      }
      request.onScanned?.(version);
    }
    after = page.at(-1);
    if (page.length < pageSize || after === undefined) return report;
  }
}

async function scanOne(
  o: RescanOptions,
  version: StoredVersion,
  report: RescanReport,
  infectedBlobs: Map<string, string>,
  signal: AbortSignal | undefined,
): Promise<void> {
  const key = `${version.projectId}/${version.blobFileId}`;
  const blobKey = `${key}.${version.blobVersion}`;
  let signature = infectedBlobs.get(blobKey);
  if (signature === undefined) {
    // The scanner refuses a longer stream (clamd: `INSTREAM size limit exceeded`): said, not scanned.
    if (version.sizeBytes > o.scanner.maxBytes) {
      report.skipped.push({ fileId: version.fileId, versionId: version.versionId, reason: 'oversize' });
      return;
    }
    const opened = await o.blobs.get(key, version.blobVersion, signal ? { signal } : undefined);
    if (!opened) {
      report.skipped.push({ fileId: version.fileId, versionId: version.versionId, reason: 'missing' });
      return;
    }
    const { body } = opened;
    // Streamed: a version is never held whole in memory (a small one the store keeps is a Buffer).
    const bytes = Buffer.isBuffer(body) ? oneChunk(body) : body;
    // The scanner reads the stream and meets its errors; this keeps one that comes after it
    // gave up from being unhandled.
    if (!Buffer.isBuffer(body)) body.on('error', () => {});
    try {
      const verdict = await o.scanner.scan(bytes, signal);
      report.scanned += 1;
      report.scannedBytes += version.sizeBytes;
      if (verdict.result === 'clean') return;
      signature = verdict.signature;
      infectedBlobs.set(blobKey, signature);
    } finally {
      if (!Buffer.isBuffer(body)) body.destroy();
    }
  }
  const quarantined = await o.fileQuarantine.quarantine(
    version.fileId,
    { signature, versionId: version.versionId },
    systemActor,
  );
  report.infected.push({
    fileId: version.fileId,
    versionId: version.versionId,
    signature,
    quarantined: quarantined !== undefined,
  });
}

async function* oneChunk(bytes: Buffer): AsyncGenerator<Uint8Array> {
  yield bytes;
}
