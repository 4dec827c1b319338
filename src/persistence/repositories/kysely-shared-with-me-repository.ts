import type { Kysely } from 'kysely';
import type {
  SharedItem,
  SharedQuery,
  SharedWithMeRepository,
} from '../../domain/folders/shared-with-me-repository.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import type { FileViewCache } from './files/file-view-cache.ts';
import { KeptFileRecords } from './files/kept-file-records.ts';
import { findSharedWith } from './folders/find-shared-with.ts';

/** SharedWithMeRepository over Kysely (SQLite or PostgreSQL). */
export class KyselySharedWithMeRepository implements SharedWithMeRepository {
  readonly #db: Kysely<DatabaseSchema>;
  readonly #records: KeptFileRecords;

  /** `views`: the records point reads keep, which a page's files are answered from. */
  constructor(db: Kysely<DatabaseSchema>, views: FileViewCache) {
    this.#db = db;
    this.#records = new KeptFileRecords(db, views);
  }

  findShared(query: SharedQuery): Promise<{ items: SharedItem[]; hasMore: boolean }> {
    return findSharedWith(this.#db, this.#records, query);
  }
}
