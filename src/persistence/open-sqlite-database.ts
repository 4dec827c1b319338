import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, sql } from 'kysely';
import { storageFull } from '../errors/errors.ts';
import type { Database } from './database.ts';
import type { DatabaseSchema } from './database-schema.ts';
import { NodeSqliteDialect } from './node-sqlite-dialect.ts';
import { startSqliteCheckpointer } from './sqlite-checkpointer.ts';
import { watchWrites } from './watched-dialect.ts';
import { registerWriteWatch, WriteWatch } from './write-watch.ts';

/**
 * Opens the embedded store: one connection per process. Other processes (the `coffer` CLI,
 * cluster workers) open their own; SQLite's file locks and BEGIN IMMEDIATE keep them apart.
 */
export async function openSqliteDatabase(options: {
  /** A path relative to the working directory, or `:memory:`. */
  location: string;
  busyTimeoutMs: number;
}): Promise<Database> {
  const { location, busyTimeoutMs } = options;
  if (location === '')
    throw new Error('COFFER_DATABASE_URL: sqlite: needs a path, e.g. sqlite:./data/coffer.db');
  const inMemory = location === ':memory:';
  if (!inMemory) {
    // security: the database holds the signing keys. SQLite would create it 0644 (less the
    // umask); created 0600 here, and SQLite gives its -wal and -shm files the same mode.
    const file = path.resolve(location);
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  }
  const database = new DatabaseSync(inMemory ? ':memory:' : path.resolve(location));
  try {
    applyPragmas(database, busyTimeoutMs);
  } catch (error) {
    database.close();
    throw error;
  }
  const checkpointer = inMemory
    ? undefined
    : startSqliteCheckpointer(path.resolve(location), {
        busyTimeoutMs,
        // Without its thread, SQLite checkpoints on commit again (on the request thread).
        onFailure: () => database.isOpen && database.exec('pragma wal_autocheckpoint = 1000'),
      });
  const writes = new WriteWatch();
  const db = new Kysely<DatabaseSchema>({
    dialect: watchWrites(new NodeSqliteDialect({ database, busyTimeoutMs }), writes),
  });
  registerWriteWatch(db, writes);
  return {
    db,
    dialect: 'sqlite',
    writes,
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
    check: async () => {
      await sql`select 1`.execute(db);
      if (!inMemory) await probeWrite(`${path.resolve(location)}-readiness-probe`);
    },
  };
}

/**
 * Readiness: SQLite answers reads on a full disk, so write one page beside the database and
 * remove it; ENOSPC or EDQUOT there means the next transaction would fail with SQLITE_FULL.
 */
async function probeWrite(probePath: string): Promise<void> {
  try {
    await writeFile(probePath, Buffer.alloc(4096), { flush: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw code === 'ENOSPC' || code === 'EDQUOT' ? storageFull('database', error) : error;
  } finally {
    await rm(probePath, { force: true });
  }
}

function applyPragmas(database: DatabaseSync, busyTimeoutMs: number): void {
  // First, so that the pragmas below wait for a lock instead of failing at once.
  database.exec(`pragma busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
  // WAL: readers never block the writer and the writer never blocks readers.
  database.exec('pragma journal_mode = wal');
  // NORMAL (PocketBase's choice): in WAL mode a commit survives any crash of the process (it is
  // in the OS's page cache before it is acknowledged); only an OS crash or power loss may drop
  // the last commits, and the file never corrupts. FULL would add an fsync to every commit
  // (on the request thread) for that last case. See docs/decisions.md.
  database.exec('pragma synchronous = normal');
  // Checkpoints run on a thread of their own (sqlite-checkpointer.ts), not at commit.
  database.exec('pragma wal_autocheckpoint = 0');
  // When the WAL starts over, a file grown past this under a burst of writes is cut back to it.
  database.exec(`pragma journal_size_limit = ${64 * 1024 * 1024}`);
  // SQLite leaves foreign keys off by default; the ACL cascade depends on them. Per connection.
  database.exec('pragma foreign_keys = on');
  // 64 MiB of pages (the default is 2 MiB): the upper levels of the files' and ACLs' indexes of
  // a project of millions stay in memory, so a point read stops paying read() calls for them.
  // Grown only as pages are read; reads go through read(), never mmap (an I/O error on a
  // mapped page would kill the process with SIGBUS instead of failing one request).
  database.exec(`pragma cache_size = ${-64 * 1024}`);
}
