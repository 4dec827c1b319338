import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import type { BlobStore } from '../domain/blobs/blob-store.ts';
import type { Database } from '../persistence/database.ts';
import { countAllRows, readAllRows, type TableName, writeAllRows } from '../persistence/table-copy.ts';
import { openBlobStore } from '../services.ts';
import { openStores } from '../wiring/open-stores.ts';
import { createExportDir, metadataFileName, readExportDir, readLines } from './export-dir.ts';
import { describeDatabase, prepareLocalPaths } from './local-paths.ts';
import { privateDirectoryMode, privateFileMode } from './private-files.ts';
import type { ProgressReporter } from './progress.ts';

// `coffer export --out DIR` and `coffer import --in DIR`: the way from the embedded defaults
// to PostgreSQL + S3 (or back, or to a backup). Only verified files carry bytes: an unverified
// upload is not content. The layout is in export-dir.ts. Blob versions are the source store's
// own: import stores each file's bytes as a new version of the target store and pins that one
// in the file's row.

export async function exportData(config: Config, outDir: string, progress: ProgressReporter) {
  await prepareLocalPaths(config, { stores: 'existing' });
  await createExportDir(outDir);
  const { database } = await openStores(config, (line) => console.error(line));
  const blobs = openBlobStore(config.storageUrl);
  const counts: Record<string, number> = { blobs: 0 };
  try {
    // Written under another name and renamed once complete: a failed export cannot be imported.
    const partial = path.join(outDir, `${metadataFileName}.partial`);
    const metadata = await open(partial, 'wx', privateFileMode);
    progress.phase('rows', await countAllRows(database.db));
    const rows = exportRows(database, blobs, outDir, counts, progress);
    await pipeline(Readable.from(rows), metadata.createWriteStream());
    await rename(partial, path.join(outDir, metadataFileName));
    progress.finish();
    return counts;
  } finally {
    await database.close();
    await closeBlobStore(blobs);
  }
}

/** Loads an export into empty stores; the export is checked whole before the target is opened. */
export async function importData(config: Config, inDir: string, progress: ProgressReporter) {
  const { blobs: exported, rows: rowCount } = await readExportDir(inDir);
  await prepareLocalPaths(config, { stores: 'create' });
  const { database } = await openStores(config, (line) => console.error(line));
  const blobs = openBlobStore(config.storageUrl);
  try {
    const existing = await database.db.selectFrom('projects').select('id').limit(1).execute();
    if (existing.length > 0)
      throw new ConfigError(`${describeDatabase(config)}: already holds projects; import needs empty stores`);
    const versions = new Map<string, string>(); // blob key → its version in the target store
    progress.phase('blobs', exported.length);
    for (const blob of exported) {
      const stored = await blobs.put(blob.key, createReadStream(blob.file), {
        contentType: blob.contentType,
        maxBytes: Number.MAX_SAFE_INTEGER,
      });
      versions.set(blob.key, stored.version);
      progress.advance(1, stored.sizeBytes);
    }
    // Bytes first, records last: a failed import leaves no record without its bytes.
    progress.phase('rows', rowCount);
    const rows = pinImportedVersions(readLines(path.join(inDir, metadataFileName)), versions, progress);
    const counts = await writeAllRows(database.db, rows);
    progress.finish();
    return { ...counts, blobs: exported.length };
  } finally {
    await database.close();
    await closeBlobStore(blobs);
  }
}

/** Every row as one line of metadata.ndjson, exporting each verified file's bytes on the way. */
async function* exportRows(
  database: Database,
  blobs: BlobStore,
  outDir: string,
  counts: Record<string, number>,
  progress: ProgressReporter,
) {
  for await (const { table, row } of readAllRows(database.db)) {
    yield `${JSON.stringify({ table, row })}\n`;
    counts[table] = (counts[table] ?? 0) + 1;
    let bytes = 0;
    if (table === 'files' && row.verified === 1) {
      await exportBlob(blobs, row, outDir);
      counts.blobs! += 1;
      bytes = Number(row.content_size_bytes ?? 0);
    }
    progress.advance(1, bytes);
  }
}

async function closeBlobStore(blobs: BlobStore): Promise<void> {
  if ('close' in blobs && typeof blobs.close === 'function') await blobs.close();
}

async function exportBlob(blobs: BlobStore, row: Record<string, unknown>, outDir: string): Promise<void> {
  const key = `${row.project_id}/${row.id}`;
  // A copy's bytes live under its source's key; the export holds them once per file, so an
  // import gives every copy bytes of its own (see pinImportedVersions).
  const storedUnder = `${row.project_id}/${row.blob_file_id ?? row.id}`;
  const blob =
    typeof row.blob_version === 'string' ? await blobs.get(storedUnder, row.blob_version) : undefined;
  if (!blob) throw new Error(`the verified file ${key} has no bytes in the blob store`);
  const file = path.join(outDir, 'blobs', key);
  await mkdir(path.dirname(file), { recursive: true, mode: privateDirectoryMode });
  const body = Buffer.isBuffer(blob.body) ? Readable.from([blob.body]) : blob.body;
  await pipeline(body, createWriteStream(file, { flags: 'wx', mode: privateFileMode }));
  await writeFile(`${file}.json`, JSON.stringify({ contentType: row.content_type, etag: row.etag }), {
    flag: 'wx',
    mode: privateFileMode,
  });
}

/** Points each verified file's row at the version its bytes got in the target store. */
async function* pinImportedVersions(
  rows: AsyncIterable<{ table: TableName; row: Record<string, unknown> }>,
  versions: Map<string, string>,
  progress: ProgressReporter,
): AsyncGenerator<{ table: TableName; row: Record<string, unknown> }> {
  for await (const { table, row } of rows) {
    progress.advance(1);
    if (table === 'files' && row.verified === 1) {
      const version = versions.get(`${row.project_id}/${row.id}`);
      if (!version) throw new Error(`the export holds no bytes for the verified file ${row.id}`);
      yield { table, row: { ...row, blob_version: version, blob_file_id: null } };
    } else yield { table, row };
  }
}
