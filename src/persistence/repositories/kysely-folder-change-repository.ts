import type { Kysely } from 'kysely';
import type {
  DeletedFile,
  FolderChangeRepository,
  FolderDeletion,
  FolderMove,
  FolderMoveResult,
  FolderRefusal,
} from '../../domain/folders/folder-change-repository.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { deleteFolder } from './folders/delete-folder.ts';
import { moveFolder } from './folders/move-folder.ts';

/** FolderChangeRepository over Kysely (SQLite or PostgreSQL): each operation lives in its module under folders/. */
export class KyselyFolderChangeRepository implements FolderChangeRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  moveFolder(move: FolderMove): Promise<FolderMoveResult> {
    return moveFolder(this.#db, move);
  }

  deleteFolder(deletion: FolderDeletion): Promise<{ deleted: DeletedFile[] } | FolderRefusal> {
    return deleteFolder(this.#db, deletion);
  }
}
