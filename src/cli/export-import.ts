import { createReadStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { openBlobStore } from '../blob-stores/open-blob-store.ts';
import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import type { BlobStore } from '../domain/blobs/blob-store.ts';
import { withReadSnapshot } from '../persistence/read-snapshot.ts';
import { countAllRows, readAllRows, type TableName, writeAllRows } from '../persistence/table-copy.ts';
import { openStores } from '../wiring/open-stores.ts';
import { exportBlobs } from './export-blobs.ts';
import { createExportDir, metadataFileName, readExportDir, readLines } from './export-dir.ts';
import { leaveOutFiles, writeMetadata } from './export-metadata.ts';
import { pinVersion, toImportKey, toRowBytes } from './exported-rows.ts';
import { type ImportGate, openImportGate } from './import-gate.ts';
import { describeDatabase, prepareLocalPaths } from './local-paths.ts';
import type { ProgressReporter } from './progress.ts';

// `coffer export --out DIR` and `coffer import --in DIR`: a backup of a live server, and the
// way from the embedded defaults to PostgreSQL + S3 (or back). Only verified files, trashed
// files and non-current versions carry bytes: an unverified upload (or a new version on its
// way) is not content. The layout is in export-dir.ts. Blob versions are the source store's
// own: import stores each row's bytes as a new version of its file's key in the target store
// and pins that one in the row.

/**
 * Exports in two passes: every row from one snapshot of the database (read-snapshot.ts), so the
 * export restores however busy the server was; then the bytes of the verified files those rows
 * list, after the snapshot ended (a snapshot held for hours of copying would hold back
 * PostgreSQL's vacuum and SQLite's WAL). Files verified after the snapshot are not in it.
 */
export async function exportData(config: Config, outDir: string, progress: ProgressReporter) {
  await prepareLocalPaths(config, { stores: 'existing' });
  await createExportDir(outDir);
  const { database } = await openStores(config, (line) => console.error(line));
  const blobs = await openBlobStore(config.storageUrl);
  try {
    // Written under another name and renamed once complete: a failed export cannot be imported.
    const partial = path.join(outDir, `${metadataFileName}.partial`);
    const rows = await withReadSnapshot(database, async (snapshot) => {
      progress.phase('rows', await countAllRows(snapshot));
      return writeMetadata(partial, readAllRows(snapshot), progress);
    });
    const bytes = await exportBlobs({
      metadataFile: partial,
      outDir,
      blobs,
      database,
      progress,
      verifiedFiles: rows.verifiedFiles,
    });
    let { counts } = rows;
    if (bytes.deletedMeanwhile.size > 0) counts = await leaveOutFiles(partial, bytes.deletedMeanwhile);
    await rename(partial, path.join(outDir, metadataFileName));
    progress.finish();
    return { ...counts, blobs: bytes.blobs, deletedMeanwhile: bytes.deletedMeanwhile.size };
  } finally {
    await database.close();
    await closeBlobStore(blobs);
  }
}

/** `coffer export --verify DIR`: the check an import makes first, without a target. */
export async function verifyExport(inDir: string, progress: ProgressReporter) {
  const { blobs, rows } = await readExportDir(inDir, { flag: '--verify', progress });
  progress.finish();
  return { rows, blobs: blobs.length };
}

/** Loads an export into empty stores; the export is checked whole (bytes too) before the target is opened. */
export async function importData(config: Config, inDir: string, progress: ProgressReporter) {
  const { blobs: exported, rows: rowCount } = await readExportDir(inDir, { flag: '--in', progress });
  await prepareLocalPaths(config, { stores: 'create' });
  const { database } = await openStores(config, (line) => console.error(line));
  const blobs = await openBlobStore(config.storageUrl);
  try {
    const existing = await database.db.selectFrom('projects').select('id').limit(1).execute();
    if (existing.length > 0)
      throw new ConfigError(`${describeDatabase(config)}: already holds projects; import needs empty stores`);
    const operators = await database.db.selectFrom('operators').select('id').limit(1).execute();
    if (operators.length > 0)
      throw new ConfigError(
        `${describeDatabase(config)}: already holds console operators; import needs empty stores (the export brings its own)`,
      );
    const gate = openImportGate(config);
    await gate.learn(readLines(path.join(inDir, metadataFileName)));
    const versions = new Map<string, string>(); // exported blob → its version in the target store
    progress.phase('blobs', exported.length);
    for (const blob of exported) {
      const stored = await blobs.put(toImportKey(blob.key), createReadStream(blob.file), {
        contentType: blob.sidecar.contentType,
        maxBytes: Number.MAX_SAFE_INTEGER,
      });
      versions.set(blob.key, stored.version);
      // Imported bytes pass the gate as uploads do (issue 42): before any row is written.
      await gate.judge(blob);
      progress.advance(1, stored.sizeBytes);
    }
    // Bytes first, records last: a failed import leaves no record without its bytes.
    progress.phase('rows', rowCount);
    const rows = pinImportedVersions(readLines(path.join(inDir, metadataFileName)), versions, progress);
    const now = new Date();
    const counts = await writeAllRows(database.db, quarantineRefused(rows, gate, now));
    progress.finish();
    return { ...counts, blobs: exported.length, refused: gate.refusals() };
  } finally {
    await database.close();
    await closeBlobStore(blobs);
  }
}

async function* quarantineRefused(
  rows: AsyncIterable<{ table: TableName; row: Record<string, unknown> }>,
  gate: ImportGate,
  now: Date,
): AsyncGenerator<{ table: TableName; row: Record<string, unknown> }> {
  for await (const { table, row } of rows) yield { table, row: gate.quarantine(table, row, now) };
}

async function closeBlobStore(blobs: BlobStore): Promise<void> {
  if ('close' in blobs && typeof blobs.close === 'function') await blobs.close();
}

/** Points each row with bytes (exported-rows.ts) at the version its bytes got in the target store. */
async function* pinImportedVersions(
  rows: AsyncIterable<{ table: TableName; row: Record<string, unknown> }>,
  versions: Map<string, string>,
  progress: ProgressReporter,
): AsyncGenerator<{ table: TableName; row: Record<string, unknown> }> {
  for await (const { table, row } of rows) {
    progress.advance(1);
    const bytes = toRowBytes(table, row);
    if (bytes) {
      const version = versions.get(bytes.name);
      if (!version) throw new Error(`${bytes.record.id} of ${table} has no bytes in the export`);
      yield { table, row: pinVersion(table, row, version) };
    } else yield { table, row };
  }
}
