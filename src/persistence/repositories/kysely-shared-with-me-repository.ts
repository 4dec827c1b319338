import type { Kysely } from 'kysely';
import type {
  SharedItem,
  SharedQuery,
  SharedWithMeRepository,
} from '../../domain/folders/shared-with-me-repository.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { findSharedWith } from './folders/find-shared-with.ts';

/** SharedWithMeRepository over Kysely (SQLite or PostgreSQL). */
export class KyselySharedWithMeRepository implements SharedWithMeRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  findShared(query: SharedQuery): Promise<{ items: SharedItem[]; hasMore: boolean }> {
    return findSharedWith(this.#db, query);
  }
}
