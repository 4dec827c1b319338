import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { BlobStore } from '../domain/blobs/blob-store.ts';
import type { Database } from '../persistence/database.ts';
import { readLines } from './export-dir.ts';
import { type BlobSidecar, toRecordMismatch, writeBlobFile } from './exported-blob.ts';
import { privateDirectoryMode, privateFileMode } from './private-files.ts';
import type { ProgressReporter } from './progress.ts';

/**
 * The second pass of an export: copies the bytes of every verified file that the snapshot's
 * rows (`metadataFile`) list, outside the snapshot (versions are immutable, so bytes read now
 * are the snapshot's). Bytes can only have gone since with their file: a file deleted after
 * the snapshot whose bytes are already removed is answered in `deletedMeanwhile` (its rows are
 * then left out); missing bytes of a file that still exists are an error, as are bytes that
 * differ from their record.
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
    if (table !== 'files' || row.verified !== 1) continue;
    const sizeBytes = await exportBlob(blobs, row, outDir);
    if (sizeBytes !== undefined) copied += 1;
    else if (await isDeleted(database, String(row.id))) deletedMeanwhile.add(String(row.id));
    else throw new Error(`the verified file ${row.project_id}/${row.id} has no bytes in the blob store`);
    progress.advance(1, sizeBytes ?? 0);
  }
  return { blobs: copied, deletedMeanwhile };
}

/** Writes one verified file's bytes and sidecar; undefined when the store holds no bytes. */
async function exportBlob(
  blobs: BlobStore,
  row: Record<string, unknown>,
  outDir: string,
): Promise<number | undefined> {
  const key = `${row.project_id}/${row.id}`;
  // A copy's bytes live under its source's key; the export holds them once per file, so an
  // import gives every copy bytes of its own (see pinImportedVersions).
  const storedUnder = `${row.project_id}/${row.blob_file_id ?? row.id}`;
  const blob =
    typeof row.blob_version === 'string' ? await blobs.get(storedUnder, row.blob_version) : undefined;
  if (!blob) return undefined;
  const file = path.join(outDir, 'blobs', key);
  await mkdir(path.dirname(file), { recursive: true, mode: privateDirectoryMode });
  const body = Buffer.isBuffer(blob.body) ? Readable.from([blob.body]) : blob.body;
  const measured = await writeBlobFile(body, file);
  // A backup must restore: bytes the store damaged fail the export now, not the import later.
  const mismatch = toRecordMismatch(measured, row);
  if (mismatch) throw new Error(`the blob store's ${storedUnder}.${row.blob_version}: ${mismatch}`);
  const sidecar: BlobSidecar = {
    contentType: String(row.content_type ?? 'application/octet-stream'),
    etag: row.etag,
    ...measured,
  };
  await writeFile(`${file}.json`, JSON.stringify(sidecar), { flag: 'wx', mode: privateFileMode });
  return measured.sizeBytes;
}

/** Whether the file is gone from the live database (deleted since the snapshot). */
async function isDeleted(database: Database, fileId: string): Promise<boolean> {
  const live = await database.db.selectFrom('files').select('id').where('id', '=', fileId).executeTakeFirst();
  return live === undefined;
}
