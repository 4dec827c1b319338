import { open, rename } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type ExportLine, readLines } from './export-dir.ts';
import { toRowBytes } from './exported-rows.ts';
import { privateFileMode } from './private-files.ts';
import type { ProgressReporter } from './progress.ts';

// metadata.ndjson as an export writes it: once from the snapshot, and again without the files
// deleted since whose bytes went with them (export-blobs.ts).

/** `verifiedFiles`: the rows that carry bytes (verified and trashed files, versions: exported-rows.ts). */
export type Tally = { counts: Record<string, number>; verifiedFiles: number };

/** Writes lines to a new private metadata file; answers how many of each table (and verified files). */
export async function writeMetadata(
  file: string,
  lines: AsyncIterable<ExportLine>,
  progress?: ProgressReporter,
) {
  const tally: Tally = { counts: {}, verifiedFiles: 0 };
  async function* text() {
    for await (const line of lines) {
      tally.counts[line.table] = (tally.counts[line.table] ?? 0) + 1;
      if (toRowBytes(line.table, line.row)) tally.verifiedFiles += 1;
      progress?.advance(1);
      yield `${JSON.stringify(line)}\n`;
    }
  }
  const handle = await open(file, 'wx', privateFileMode);
  await pipeline(Readable.from(text()), handle.createWriteStream());
  return tally;
}

/**
 * Rewrites the metadata without the given files (live or trashed) with their ACL entries and
 * versions, and without the given versions (`<fileId>.<versionId>`); answers the new counts.
 */
export async function leaveOutFiles(file: string, fileIds: Set<string>): Promise<Record<string, number>> {
  async function* kept() {
    for await (const line of readLines(file)) {
      const { table, row } = line;
      if ((table === 'files' || table === 'trashed_files') && fileIds.has(String(row.id))) continue;
      if ((table === 'file_acl' || table === 'trashed_file_acl') && fileIds.has(String(row.file_id)))
        continue;
      if (
        table === 'file_versions' &&
        (fileIds.has(String(row.file_id)) || fileIds.has(`${row.file_id}.${row.version_id}`))
      )
        continue;
      yield line;
    }
  }
  const rewritten = `${file}.rewritten`;
  const { counts } = await writeMetadata(rewritten, kept());
  await rename(rewritten, file);
  return counts;
}
