import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config/config.ts';
import type { BlobStore } from '../domain/ports.ts';
import { readAllRows, type TableName, writeAllRows } from '../persistence/table-copy.ts';
import { openBlobStore, openStores } from '../services.ts';

// `coffer export --out DIR` and `coffer import --in DIR`: the way from the embedded defaults
// to PostgreSQL + S3 (or back, or to a backup). DIR holds metadata.ndjson (one {table, row}
// per line, tables in reference order) and blobs/<projectId>/<fileId> with a .json beside each
// giving its content type. Only verified files carry bytes: an unverified upload is not content.
// Blob versions are the source store's own: import stores each file's bytes as a new version of
// the target store and pins that one in the file's row.

export async function exportData(config: Config, outDir: string) {
  const { database } = await openStores(config, (line) => console.error(line));
  const blobs = openBlobStore(config.storageUrl);
  const counts: Record<string, number> = { blobs: 0 };
  try {
    await mkdir(path.join(outDir, 'blobs'), { recursive: true });
    const metadata = createWriteStream(path.join(outDir, 'metadata.ndjson'), { flags: 'wx' });
    for await (const { table, row } of readAllRows(database.db)) {
      if (!metadata.write(`${JSON.stringify({ table, row })}\n`)) await once(metadata, 'drain');
      counts[table] = (counts[table] ?? 0) + 1;
      if (table === 'files' && row.verified === 1) {
        await exportBlob(blobs, row, outDir);
        counts.blobs! += 1;
      }
    }
    await new Promise<void>((resolve, reject) =>
      metadata.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    return counts;
  } finally {
    await database.close();
    await closeBlobStore(blobs);
  }
}

/** Loads an export into empty stores (refuses stores that already hold projects). */
export async function importData(config: Config, inDir: string) {
  const { database } = await openStores(config, (line) => console.error(line));
  const blobs = openBlobStore(config.storageUrl);
  try {
    const existing = await database.db.selectFrom('projects').select('id').limit(1).execute();
    if (existing.length > 0)
      throw new Error('the target database already holds projects: import needs empty stores');
    const versions = new Map<string, string>(); // file id → its version in the target store
    for (const projectId of await listDir(path.join(inDir, 'blobs'))) {
      for (const name of await listDir(path.join(inDir, 'blobs', projectId))) {
        if (name.endsWith('.json')) continue;
        const file = path.join(inDir, 'blobs', projectId, name);
        const { contentType } = JSON.parse(await readFile(`${file}.json`, 'utf8'));
        const stored = await blobs.put(`${projectId}/${name}`, createReadStream(file), {
          contentType,
          maxBytes: Number.MAX_SAFE_INTEGER,
        });
        versions.set(name, stored.version);
      }
    }
    // Bytes first, records last: a failed import leaves no record without its bytes.
    const rows = pinImportedVersions(readLines(path.join(inDir, 'metadata.ndjson')), versions);
    const counts = await writeAllRows(database.db, rows);
    return { ...counts, blobs: versions.size };
  } finally {
    await database.close();
    await closeBlobStore(blobs);
  }
}

async function closeBlobStore(blobs: BlobStore): Promise<void> {
  if ('close' in blobs && typeof blobs.close === 'function') await blobs.close();
}

async function exportBlob(blobs: BlobStore, row: Record<string, unknown>, outDir: string): Promise<void> {
  const key = `${row.project_id}/${row.id}`;
  const blob = typeof row.blob_version === 'string' ? await blobs.get(key, row.blob_version) : undefined;
  if (!blob) throw new Error(`the verified file ${key} has no bytes in the blob store`);
  const file = path.join(outDir, 'blobs', key);
  await mkdir(path.dirname(file), { recursive: true });
  await pipeline(blob.body, createWriteStream(file, { flags: 'wx' }));
  await writeFile(`${file}.json`, JSON.stringify({ contentType: row.content_type, etag: row.etag }), {
    flag: 'wx',
  });
}

/** Points each verified file's row at the version its bytes got in the target store. */
async function* pinImportedVersions(
  rows: AsyncIterable<{ table: TableName; row: Record<string, unknown> }>,
  versions: Map<string, string>,
): AsyncGenerator<{ table: TableName; row: Record<string, unknown> }> {
  for await (const { table, row } of rows) {
    if (table === 'files' && row.verified === 1) {
      const version = versions.get(String(row.id));
      if (!version) throw new Error(`the export holds no bytes for the verified file ${row.id}`);
      yield { table, row: { ...row, blob_version: version } };
    } else yield { table, row };
  }
}

async function* readLines(file: string): AsyncGenerator<{ table: TableName; row: Record<string, unknown> }> {
  for await (const line of createInterface({
    input: createReadStream(file),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    if (line.trim()) yield JSON.parse(line);
  }
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
