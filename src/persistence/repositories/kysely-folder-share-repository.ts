import type { Kysely } from 'kysely';
import type { FolderRef, FolderRefusal } from '../../domain/folders/folder-change-repository.ts';
import type {
  FolderShare,
  FolderShareChange,
  FolderShareRepository,
  Grantee,
} from '../../domain/folders/folder-share-repository.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { selectSharesReaching, toFolderShares } from './folders/folder-share-rows.ts';
import { shareFolder, unshareFolder } from './folders/share-folder.ts';

/** FolderShareRepository over Kysely (SQLite or PostgreSQL). */
export class KyselyFolderShareRepository implements FolderShareRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  shareFolder(
    change: FolderShareChange & { maxFiles: number },
  ): Promise<{ shared: boolean } | FolderRefusal> {
    return shareFolder(this.#db, change);
  }

  unshareFolder(change: FolderShareChange): Promise<{ unshared: boolean }> {
    return unshareFolder(this.#db, change);
  }

  async findSharesReaching(folder: FolderRef): Promise<FolderShare[]> {
    return toFolderShares(await selectSharesReaching(this.#db, folder).execute());
  }

  async isSharedWith(folder: FolderRef, grantee: Grantee): Promise<boolean> {
    const row = await selectSharesReaching(this.#db, folder)
      .where((eb) =>
        eb.or([
          eb.and([eb('scope', '=', 'user'), eb('identifier', '=', grantee.userId)]),
          eb.and([eb('scope', '=', 'role'), eb('identifier', '=', grantee.role)]),
        ]),
      )
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}
