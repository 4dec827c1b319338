import { createReadStream } from 'node:fs';
import { chmod, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ConfigError, toFileErrorReason } from '../config/config-error.ts';
import { type TableName, tablesInOrder } from '../persistence/table-copy.ts';
import { assertBlobMatchesRecord, type BlobSidecar, readBlobSidecar } from './exported-blob.ts';
import { toRowBytes } from './exported-rows.ts';
import { privateDirectoryMode } from './private-files.ts';
import type { ProgressReporter } from './progress.ts';

// An export directory: metadata.ndjson (one {table, row} per line, tables in reference order)
// and blobs/<projectId>/<fileId> (a version's: <fileId>.<versionId>, exported-rows.ts) with a
// .json beside each (exported-blob.ts). It holds
// the signing keys in clear: it is as secret as the database, so it is private (0700/0600).

export const metadataFileName = 'metadata.ndjson';

export type ExportLine = { table: TableName; row: Record<string, unknown> };
export type ExportedBlob = { key: string; file: string; sidecar: BlobSidecar };

/** Makes --out a new private directory (or takes an empty one, made private), before anything is read. */
export async function createExportDir(outDir: string): Promise<void> {
  const label = `--out ${outDir}`;
  const info = await stat(outDir).catch(() => undefined);
  if (info && !info.isDirectory()) throw new ConfigError(`${label}: is not a directory`);
  if (info && (await readdir(outDir)).length > 0)
    throw new ConfigError(`${label}: already holds files; choose a new or empty directory`);
  try {
    if (info) await chmod(outDir, privateDirectoryMode);
    await mkdir(path.join(outDir, 'blobs'), { recursive: true, mode: privateDirectoryMode });
  } catch (error) {
    throw new ConfigError(`${label}: cannot create or write it (${toFileErrorReason(error)})`);
  }
}

/**
 * Reads and checks a whole export before an import touches the target (and for `coffer export
 * --verify`): the directory exists, every metadata line is a {table, row} in reference order,
 * every blob has its sidecar, and every verified or trashed file and every version has its
 * bytes, of its record's size and SHA-256 (exported-blob.ts; each file streamed through once). The first problem is a
 * ConfigError naming the file (and line). Answers the blobs to import and the number of records.
 */
export async function readExportDir(
  inDir: string,
  options: { flag: string; progress: ProgressReporter },
): Promise<{ blobs: ExportedBlob[]; rows: number }> {
  const info = await stat(inDir).catch((error: unknown) => {
    throw new ConfigError(`${options.flag} ${inDir}: cannot read it (${toFileErrorReason(error)})`);
  });
  if (!info.isDirectory()) throw new ConfigError(`${options.flag} ${inDir}: is not a directory`);
  const metadata = path.join(inDir, metadataFileName);
  // An export renames its metadata into place last (export-import.ts): a directory that holds
  // only the partial file is an export cut off midway, whatever its blobs look like.
  if (!(await isFile(metadata)) && (await isFile(`${metadata}.partial`)))
    throw new ConfigError(
      `${options.flag} ${inDir}: an incomplete export (${metadataFileName}.partial, no ${metadataFileName}: ` +
        'coffer export stopped before it finished); export again into a new directory',
    );
  const blobs = await listBlobs(inDir);
  const byKey = new Map(blobs.map((blob) => [blob.key, blob]));
  options.progress.phase('check', blobs.length);
  let lineNumber = 0;
  let lastTable = 0;
  try {
    for await (const line of readLines(metadata)) {
      lineNumber += 1;
      const where = `${metadata} line ${lineNumber}`;
      const table = tablesInOrder.indexOf(line.table);
      if (table < lastTable) throw new ConfigError(`${where}: table ${line.table} out of order`);
      lastTable = table;
      const bytes = toRowBytes(line.table, line.row);
      if (!bytes) continue;
      const blob = byKey.get(bytes.name);
      if (!blob)
        throw new ConfigError(
          `${where}: ${line.table === 'file_versions' ? 'version' : 'verified file'} ${bytes.record.id} has no bytes in ${path.join(inDir, 'blobs')}`,
        );
      const row = bytes.record;
      const { sizeBytes } = await assertBlobMatchesRecord({ file: blob.file, row, sidecar: blob.sidecar });
      options.progress.advance(1, sizeBytes);
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    if ((error as NodeJS.ErrnoException).code)
      throw new ConfigError(
        `${metadata}: cannot read it (${toFileErrorReason(error)}); is ${options.flag} an export?`,
      );
    throw new ConfigError(
      `${metadata} line ${lineNumber + 1}: not a {table, row} record (a damaged export?)`,
    );
  }
  return { blobs, rows: lineNumber };
}

/** The lines of metadata.ndjson; throws a SyntaxError on a line that is not an export record. */
export async function* readLines(file: string): AsyncGenerator<ExportLine> {
  const input = createReadStream(file);
  for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (!text.trim()) continue;
    const line = JSON.parse(text) as ExportLine;
    const isRecord = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
    if (!isRecord(line) || !tablesInOrder.includes(line.table) || !isRecord(line.row))
      throw new SyntaxError('not a {table, row} record');
    yield line;
  }
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

async function listBlobs(inDir: string): Promise<ExportedBlob[]> {
  const blobs: ExportedBlob[] = [];
  const root = path.join(inDir, 'blobs');
  for (const projectId of await listDir(root)) {
    for (const name of await listDir(path.join(root, projectId))) {
      if (name.endsWith('.json')) continue;
      const file = path.join(root, projectId, name);
      const sidecar = await readBlobSidecar(file);
      if (!sidecar)
        throw new ConfigError(`${file}.json: missing or damaged (it gives the file's content type)`);
      blobs.push({ key: `${projectId}/${name}`, file, sidecar });
    }
  }
  return blobs;
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ConfigError(`${dir}: cannot read it (${toFileErrorReason(error)})`);
  }
}
