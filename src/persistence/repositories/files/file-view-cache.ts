import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { FileRecord } from '../../../domain/files/file-record.ts';
import { accessEpochCheckIntervalMs } from '../../../domain/identity/access-epoch-watch.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { type WriteWatch, writeWatchOf } from '../../write-watch.ts';
import { prepareQuery } from '../prepared-query.ts';
import { selectFileWithAcl, type toFileWithAcl, withFolderAcl } from './file-rows.ts';

type FileWithAclRow = Parameters<typeof toFileWithAcl>[0][number];

/** Files kept per process: the hot ones (a page of thumbnails, a file everyone downloads). */
const maxViews = 5_000;

/**
 * How long a stamp read vouches for a kept record to the hot reads (findRecent): as long as the
 * access epoch vouches for a user, so a change made on another node is seen within it.
 */
export const fileTrustIntervalMs = accessEpochCheckIntervalMs;

type View = {
  stamp: string;
  record: FileRecord;
  /** performance.now() when the last stamp read that found `stamp` began (-Infinity: never). */
  checkedAtMs: number;
  /** The write watch's generation before that read: any write since and it vouches for nothing. */
  generation: number;
};

/**
 * Files by id as last read, each with the row stamp it had (migrations/file-row-stamp.ts). The
 * hot path (every file call, every download) reads only the stamp, a one-column primary-key
 * read, and answers the kept record while the stamp is unchanged: the full read (the row joined
 * with its ACL, some thirty columns) was a quarter of a metadata request's CPU. Any change to the
 * row or its ACL, by anyone, moves the stamp in the same commit, so a removed share or a
 * revocation is seen at once, as by the full read.
 */
export class FileViewCache {
  readonly #views = new LRUCache<string, View>({ max: maxViews });
  /** findRecent's reads under way, by file id, with the write generation each began under. */
  readonly #pending = new Map<string, { generation: number; found: Promise<FileRecord | undefined> }>();
  /** Undefined for a handle openDatabase did not open: then nothing is trusted without a stamp read. */
  readonly #writes: WriteWatch | undefined;
  readonly #selectFull: (id: string) => Promise<Array<FileWithAclRow & { row_stamp: unknown }>>;
  readonly #selectStamp: (id: string) => Promise<Array<{ row_stamp: unknown }>>;

  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
    this.#writes = writeWatchOf(db);
    this.#selectFull = prepareQuery(db, (id: string) => selectFileWithAcl(db, id), ['']);
    this.#selectStamp = prepareQuery(
      db,
      (id: string) => db.selectFrom('files').select('row_stamp').where('id', '=', id),
      [''],
    );
  }

  /**
   * The kept record with no read at all while a stamp read vouched for it less than
   * fileTrustIntervalMs ago and nothing was written since by this process or its sibling
   * workers (write-watch.ts); otherwise as find. A change committed by another node is seen
   * within the interval. For the hot reads only (GET /api/v1/file/:id, downloads): a write path
   * reads with find.
   */
  findRecent(id: string): Promise<FileRecord | undefined> {
    const kept = this.#views.get(id);
    if (
      kept !== undefined &&
      kept.generation === this.#writes?.generation &&
      performance.now() - kept.checkedAtMs < fileTrustIntervalMs
    )
      return Promise.resolve(kept.record);
    // Concurrent hot reads of one file share one stamp read (a page of thumbnails asks for the
    // same files at once): only one begun since this process's last write, which vouches for
    // the same state (a change on another node is seen within the trust interval either way).
    const generation = this.#writes?.generation;
    const pending = this.#pending.get(id);
    if (pending !== undefined && pending.generation === generation) return pending.found;
    const found = this.find(id);
    if (generation === undefined) return found;
    const read = { generation, found };
    this.#pending.set(id, read);
    const settled = () => {
      if (this.#pending.get(id) === read) this.#pending.delete(id);
    };
    found.then(settled, settled);
    return found;
  }

  /** The file with its ACL, read whole only when its stamp moved since it was kept. */
  async find(id: string): Promise<FileRecord | undefined> {
    const kept = this.#views.get(id);
    // Taken before the read: a write that overtakes it leaves the answer vouching for nothing.
    const generation = this.#writes?.generation ?? Number.NaN;
    const startedAtMs = performance.now();
    if (kept) {
      const [current] = await this.#selectStamp(id);
      if (current === undefined) {
        this.#views.delete(id);
        return undefined;
      }
      if (String(current.row_stamp) === kept.stamp) {
        kept.checkedAtMs = startedAtMs;
        kept.generation = generation;
        return kept.record;
      }
    }
    const rows = await this.#selectFull(id);
    // Its folder shares come with it (issue 36): sharing or unsharing a folder moves the stamp
    // of every file under it, so a kept record never holds an old set of them.
    const record = await withFolderAcl(this.#db, rows);
    if (!record) {
      this.#views.delete(id);
      return undefined;
    }
    return this.keep(record, rows[0]!.row_stamp, { checkedAtMs: startedAtMs, generation });
  }

  /**
   * The kept record of a file whose stamp a reader has just read (a folder page reads its
   * files' stamps, not their rows), or undefined when it changed since it was kept.
   */
  findKept(id: string, stamp: unknown): FileRecord | undefined {
    const kept = this.#views.get(id);
    return kept !== undefined && kept.stamp === String(stamp) ? kept.record : undefined;
  }

  /** Keeps a record read whole with its stamp, and answers it frozen. */
  keep(
    record: FileRecord,
    stamp: unknown,
    checked: Pick<View, 'checkedAtMs' | 'generation'> = {
      checkedAtMs: Number.NEGATIVE_INFINITY,
      generation: Number.NaN,
    },
  ): FileRecord {
    // Shared by every request that reads this file from now on: nobody may change it.
    const frozen = deepFreeze(record);
    this.#views.set(record.id, { stamp: String(stamp), record: frozen, ...checked });
    return frozen;
  }
}

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || value instanceof Date || Object.isFrozen(value))
    return value;
  for (const field of Object.values(value)) deepFreeze(field);
  return Object.freeze(value);
}
