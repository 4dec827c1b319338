import type { Kysely } from 'kysely';
import type {
  TrashedFile,
  TrashOwner,
  TrashPosition,
  TrashRepository,
  TrashScope,
} from '../../../domain/trash/trash-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import {
  findTrashed,
  listExpiredIds,
  listOldestIds,
  listTrash,
  listTrashProjectIds,
  readTrashBytes,
} from './list-trash.ts';
import { purgeTrashed } from './purge-trashed.ts';
import { restoreTrashed } from './restore-trashed.ts';
import { trashFile } from './trash-files.ts';

/** TrashRepository over Kysely (SQLite or PostgreSQL): each operation lives in its module here. */
export class KyselyTrashRepository implements TrashRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  trash(request: Parameters<TrashRepository['trash']>[0]) {
    return trashFile(this.#db, request);
  }

  find(projectId: string, id: string): Promise<TrashedFile | undefined> {
    return findTrashed(this.#db, projectId, id);
  }

  list(scope: TrashScope, page: { after?: TrashPosition; limit: number }): Promise<TrashedFile[]> {
    return listTrash(this.#db, scope, page);
  }

  listOldestIds(owner: TrashOwner, limit: number): Promise<string[]> {
    return listOldestIds(this.#db, owner, limit);
  }

  listExpiredIds(projectId: string, before: number, limit: number): Promise<string[]> {
    return listExpiredIds(this.#db, projectId, before, limit);
  }

  listProjectIds(): Promise<string[]> {
    return listTrashProjectIds(this.#db);
  }

  trashBytes(owner: TrashOwner): Promise<number> {
    return readTrashBytes(this.#db, owner);
  }

  restore(request: Parameters<TrashRepository['restore']>[0]) {
    return restoreTrashed(this.#db, request);
  }

  purge(request: Parameters<TrashRepository['purge']>[0]) {
    return purgeTrashed(this.#db, request);
  }
}
