import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { CofferServer } from '../processes/coffer-server.ts';
import { recountPostgresTallies } from './recount-postgres-tallies.ts';
import { type RecordShape, seedFileRecords } from './seed-file-records.ts';

type SeedOptions = {
  projectId: string;
  creatorId: string;
  count: number;
  /** The records' creation times spread evenly over this span, ending now (default: one a second). */
  spanMs?: number;
  /** How many of the new ids to answer, drawn at random, for reads spread over the table. */
  sampleSize: number;
  /** The i-th record's filePath, unique among the creator's (default: `seed-<batch>/<i>.bin`, one folder). */
  pathOf?: (i: number) => string;
  /** The i-th record's type, size and customData (default: 1 KiB of application/octet-stream, none). */
  shapeOf?: (i: number) => RecordShape;
};

/** Seeds file records into whichever database the server runs on (its SQLite file, or PostgreSQL). */
export async function seedServerRecords(
  server: CofferServer,
  options: SeedOptions,
): Promise<{ seconds: number; sampleIds: string[] }> {
  if (server.databaseUrl) return seedPostgresFileRecords({ databaseUrl: server.databaseUrl, ...options });
  return seedFileRecords({ databasePath: path.join(server.dataDir, 'coffer.db'), ...options });
}

const defaultShape: RecordShape = {
  contentType: 'application/octet-stream',
  sizeBytes: 1024,
  customData: null,
};

/** Rows per chunk written to the COPY stream: big enough to amortize, small enough to stream. */
const rowsPerChunk = 5000;

/**
 * The PostgreSQL twin of seed-file-records.ts: `count` verified file records, each with its
 * creator's ACL entry, written with COPY FROM STDIN (two streams in one transaction, then
 * ANALYZE so the planner knows the table's size), as the API would write them: the fastest
 * way in (no per-row statement or round trip). Same columns, same values. The session skips
 * triggers (replica role), so the counts they keep are recounted for the creator before the commit.
 */
export async function seedPostgresFileRecords(
  options: SeedOptions & { databaseUrl: string },
): Promise<{ seconds: number; sampleIds: string[] }> {
  const started = performance.now();
  const { count, projectId, creatorId } = options;
  // Server ids are 128 random bits, base64url (src/domain/ids.ts); in key order, the B-trees grow at their end.
  const ids = Array.from({ length: count }, () => randomBytes(16).toString('base64url')).sort();
  const batch = randomBytes(4).toString('hex');
  const width = String(count).length;
  const now = Date.now();
  const spacingMs = options.spanMs === undefined ? 1000 : options.spanMs / count;
  const createdAtOf = (i: number) => now - Math.round((count - i) * spacingMs);
  const etag = '"0f343b0931126a20f133d67c2b018a3b"';
  const pathOf = options.pathOf ?? ((i: number) => `seed-${batch}/${String(i).padStart(width, '0')}.bin`);
  const shapeOf = options.shapeOf ?? (() => defaultShape);
  const fileRow = (i: number) => {
    const createdAt = createdAtOf(i);
    const filePath = pathOf(i);
    const shape = shapeOf(i);
    // custom_data (migration 0009) only when asked for: the bench also runs against older commits.
    const customData = options.shapeOf ? `\t${shape.customData ?? '\\N'}` : '';
    // COPY's text format: tab-separated columns; none of these values holds a tab, newline or backslash.
    return `${ids[i]}\t${projectId}\t${creatorId}\t${filePath}\tuser\t1\t${etag}\t${shape.sizeBytes}\t${shape.contentType}\t${createdAt}\t000000000000000000000000\t${Math.floor(createdAt / 1000) + 3600}\t${createdAt}\t${createdAt}\t1${customData}\n`;
  };
  // The session skips triggers (replica role): the customData side table (migration 0037) is written here.
  const customValueRows = (i: number) => {
    const customData = shapeOf(i).customData;
    if (customData === null) return '';
    let rows = '';
    for (const [key, value] of Object.entries(JSON.parse(customData) as Record<string, unknown>)) {
      const kind = typeof value === 'string' ? 's' : typeof value === 'boolean' ? 'b' : 'n';
      const text = kind === 'n' ? '\\N' : String(value);
      const number = kind === 'n' ? String(value) : '\\N';
      rows += `${ids[i]}\t${key}\t${projectId}\t${kind}\t${text}\t${number}\t${createdAtOf(i)}\n`;
    }
    return rows;
  };
  // With the entry's listing keys (migration 0006): a listing finds the reader's entries by them.
  const aclRow = (i: number) => `${ids[i]}\tuser\t${creatorId}\t0\t${projectId}\t${createdAtOf(i)}\n`;
  const client = new pg.Client({ connectionString: options.databaseUrl });
  client.on('error', () => {}); // a dropped connection fails the query in flight, which throws
  await client.connect();
  try {
    // The ACL rows are valid by construction: a superuser (the bench's private cluster) skips
    // their per-row foreign-key checks for this session; anyone else just pays for them.
    await client.query('set session_replication_role = replica').catch(() => {});
    await client.query('begin');
    await copyRows(
      client,
      `copy files (id, project_id, creator_id, file_path, permission_scope, verified, etag, content_size_bytes,
         content_type, content_last_modified, blob_version, upload_expires_at, created_at, updated_at, version
         ${options.shapeOf ? ', custom_data' : ''})
       from stdin`,
      count,
      fileRow,
    );
    await copyRows(
      client,
      'copy file_acl (file_id, scope, identifier, position, project_id, file_created_at) from stdin',
      count,
      aclRow,
    );
    if (options.shapeOf)
      await copyRows(
        client,
        `copy file_custom_values (file_id, key, project_id, kind, value_text, value_number, created_at)
         from stdin`,
        count,
        customValueRows,
      );
    await recountPostgresTallies(client, { projectId, creatorId });
    await client.query('commit');
    await client.query(
      options.shapeOf ? 'analyze files, file_acl, file_custom_values' : 'analyze files, file_acl',
    );
    // The recount's rows too: the folder reads plan on them (a no-op before migration 0030).
    await client.query('analyze folders').catch(() => {});
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
  const sampleIds = Array.from(
    { length: Math.min(options.sampleSize, ids.length) },
    () => ids[Math.floor(Math.random() * ids.length)]!,
  );
  return { seconds: (performance.now() - started) / 1000, sampleIds };
}

async function copyRows(client: pg.Client, sql: string, count: number, toRow: (i: number) => string) {
  async function* chunks() {
    for (let start = 0; start < count; start += rowsPerChunk) {
      let chunk = '';
      for (let i = start; i < Math.min(count, start + rowsPerChunk); i++) chunk += toRow(i);
      yield chunk;
    }
  }
  await pipeline(Readable.from(chunks()), client.query(copyFrom(sql)));
}
