import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { BlobStore } from '../domain/blobs/blob-store.ts';
import type { Database } from '../persistence/database.ts';
import { readLines } from './export-dir.ts';
import { type BlobSidecar, toRecordMismatch, writeBlobFile } from './exported-blob.ts';
import { type RowBytes, toRowBytes } from './exported-rows.ts';
import { privateDirectoryMode, privateFileMode } from './private-files.ts';
import type { ProgressReporter } from './progress.ts';

/**
 * The second pass of an export: copies the bytes of every verified or trashed file and every
 * non-current version that the snapshot's rows (`metadataFile`) list (exported-rows.ts),
 * outside the snapshot (versions are immutable, so bytes read now are the snapshot's). Bytes
 * can only have gone since with their row: a file deleted or purged, or a version deleted or
 * pruned, after the snapshot whose bytes are already removed is answered in `deletedMeanwhile`
 * (its id, `<fileId>.<versionId>` for a version; its rows are then left out); missing bytes of
 * a row that still exists are an error, as are bytes that differ from their record.
 */
export async function exportBlobs(options: {
  metadataFile: string;
  outDir: string;
  blobs: BlobStore;
  database: Database;
  progress: ProgressReporter;
  verifiedFiles: number;
}): Promise<{ blobs: number; deletedMeanwhile: Set<string> }> {
  const { metadataFile, outDir, blobs, database, progress } = options;
  const deletedMeanwhile = new Set<string>();
  let copied = 0;
  progress.phase('blobs', options.verifiedFiles);
  for await (const { table, row } of readLines(metadataFile)) {
    const bytes = toRowBytes(table, row);
    if (!bytes) continue;
    const sizeBytes = await exportBlob(blobs, bytes, outDir);
    const id = bytes.name.split('/')[1]!;
    if (sizeBytes !== undefined) copied += 1;
    else if (await isDeleted(database, id)) deletedMeanwhile.add(id);
    else throw new Error(`${describe(bytes)} ${bytes.name} has no bytes in the blob store`);
    progress.advance(1, sizeBytes ?? 0);
  }
  return { blobs: copied, deletedMeanwhile };
}

/** Writes one row's bytes and sidecar; undefined when the store holds no bytes. */
async function exportBlob(blobs: BlobStore, bytes: RowBytes, outDir: string): Promise<number | undefined> {
  // A copy's bytes live under its source's key; the export holds them once per file, so an
  // import gives every copy bytes of its own (see pinImportedVersions).
  const { storedUnder, record: row } = bytes;
  const blob = bytes.version ? await blobs.get(storedUnder, bytes.version) : undefined;
  if (!blob) return undefined;
  const file = path.join(outDir, 'blobs', bytes.name);
  await mkdir(path.dirname(file), { recursive: true, mode: privateDirectoryMode });
  const body = Buffer.isBuffer(blob.body) ? Readable.from([blob.body]) : blob.body;
  const measured = await writeBlobFile(body, file);
  // A backup must restore: bytes the store damaged fail the export now, not the import later.
  const mismatch = toRecordMismatch(measured, row);
  if (mismatch) throw new Error(`the blob store's ${storedUnder}.${bytes.version}: ${mismatch}`);
  const sidecar: BlobSidecar = {
    contentType: String(row.content_type ?? 'application/octet-stream'),
    etag: row.etag,
    ...measured,
  };
  await writeFile(`${file}.json`, JSON.stringify(sidecar), { flag: 'wx', mode: privateFileMode });
  return measured.sizeBytes;
}

function describe(bytes: RowBytes): string {
  return bytes.name.includes('.') ? 'the version' : 'the verified file';
}

/**
 * Whether the row is gone from the live database since the snapshot: a file deleted for good
 * (neither live nor in the trash: trashing keeps the bytes), a version (`<fileId>.<versionId>`) deleted.
 */
async function isDeleted(database: Database, id: string): Promise<boolean> {
  const { db } = database;
  const [fileId, versionId] = id.split('.');
  const live = versionId
    ? await db
        .selectFrom('file_versions')
        .select('file_id')
        .where('file_id', '=', fileId!)
        .where('version_id', '=', versionId)
        .executeTakeFirst()
    : ((await db.selectFrom('files').select('id').where('id', '=', fileId!).executeTakeFirst()) ??
      (await db.selectFrom('trashed_files').select('id').where('id', '=', fileId!).executeTakeFirst()));
  return live === undefined;
}
