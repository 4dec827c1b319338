import { randomBytes } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';

/** What a seeded record holds beside its path: searches filter on these (issue 40). */
export type RecordShape = { contentType: string; sizeBytes: number; customData: string | null };

const defaultShape: RecordShape = {
  contentType: 'application/octet-stream',
  sizeBytes: 1024,
  customData: null,
};

/**
 * Inserts `count` verified file records (each with its creator's ACL entry, as the API would
 * write them) straight into a Coffer SQLite file: one transaction, two prepared statements,
 * about a million rows in seconds where the API would take hours of argon2-free but
 * fsync-bound requests. Columns follow src/persistence/migrations/ (a pinned blob version that no store holds: the
 * records serve metadata and links, not downloads).
 * Safe while the server runs: WAL lets its reads go on, BEGIN IMMEDIATE queues its writes.
 * SQLite's triggers fire for every row (SQLite cannot turn them off), so the counts they keep
 * (storage_usage, folders) are exact as after uploads.
 */
export function seedFileRecords(options: {
  databasePath: string;
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
}): { seconds: number; sampleIds: string[] } {
  const started = performance.now();
  let ids: string[] = [];
  const db = new DatabaseSync(options.databasePath);
  try {
    db.exec('pragma busy_timeout = 30000');
    // A large page cache for this connection only: random ids land all over the primary-key B-tree.
    db.exec('pragma cache_size = -262144');
    // custom_data (migration 0009) only when asked for: the bench also runs against older commits.
    const insertFile = db.prepare(
      `insert into files (id, project_id, creator_id, file_path, permission_scope, verified, etag,
         content_size_bytes, content_type, content_last_modified, blob_version, upload_expires_at, created_at,
         updated_at, version${options.shapeOf ? ', custom_data' : ''})
       values (?, ?, ?, ?, 'user', 1, ?, ?, ?, ?, '000000000000000000000000', ?, ?, ?, 1${options.shapeOf ? ', ?' : ''})`,
    );
    const shapeOf = options.shapeOf ?? (() => defaultShape);
    // The entry's listing keys (migration 0006), when the schema has them: the bench also runs
    // against older commits for before/after figures.
    const hasListingKeys = db
      .prepare(`select 1 from pragma_table_info('file_acl') where name = 'file_created_at'`)
      .get();
    const insertAcl = hasListingKeys
      ? db.prepare(
          `insert into file_acl (file_id, scope, identifier, position, project_id, file_created_at)
           values (?, 'user', ?, 0, ?, ?)`,
        )
      : db.prepare(`insert into file_acl (file_id, scope, identifier, position) values (?, 'user', ?, 0)`);
    const now = Date.now();
    const spacingMs = options.spanMs === undefined ? 1000 : options.spanMs / options.count;
    const etag = '"0f343b0931126a20f133d67c2b018a3b"';
    // Unique per run, so seeding twice into one database never collides on (project, creator, path).
    const batch = randomBytes(4).toString('hex');
    // Server ids are 128 random bits, base64url (src/domain/ids.ts). Inserted in key order (and
    // paths zero-padded) every index grows at its end, which takes a third less time (1M rows: ~15 s, not ~22 s).
    ids = Array.from({ length: options.count }, () => randomBytes(16).toString('base64url')).sort();
    const width = String(options.count).length;
    const pathOf = options.pathOf ?? ((i: number) => `seed-${batch}/${String(i).padStart(width, '0')}.bin`);
    db.exec('begin immediate');
    try {
      for (let i = 0; i < options.count; i++) {
        const id = ids[i]!;
        const createdAt = now - Math.round((options.count - i) * spacingMs);
        const shape = shapeOf(i);
        insertFile.run(
          id,
          options.projectId,
          options.creatorId,
          pathOf(i),
          etag,
          shape.sizeBytes,
          shape.contentType,
          createdAt,
          Math.floor(createdAt / 1000) + 3600,
          createdAt,
          createdAt,
          ...(options.shapeOf ? [shape.customData] : []),
        );
        if (hasListingKeys) insertAcl.run(id, options.creatorId, options.projectId, createdAt);
        else insertAcl.run(id, options.creatorId);
      }
      db.exec('commit');
    } catch (error) {
      db.exec('rollback');
      throw error;
    }
    // Folds the WAL back into the database, so the server reads one file as it would after a day of writes.
    db.exec('pragma wal_checkpoint(truncate)');
  } finally {
    db.close();
  }
  const sampleIds = Array.from(
    { length: Math.min(options.sampleSize, ids.length) },
    () => ids[Math.floor(Math.random() * ids.length)]!,
  );
  return { seconds: (performance.now() - started) / 1000, sampleIds };
}
