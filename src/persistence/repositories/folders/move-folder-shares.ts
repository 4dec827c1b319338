import { type Kysely, sql } from 'kysely';
import type { FolderMove, FolderRef } from '../../../domain/folders/folder-change-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { underFolder } from './folder-range.ts';
import { sharesUnder } from './folder-share-rows.ts';

/**
 * A folder move takes the shares of the moved subtree along (issue 36: "folder shares are
 * kept"). A share landing on a folder that already holds files outside the move would reach
 * them too: such a move is refused, naming that folder, and the caller unshares or moves
 * elsewhere (a share never widens behind its owner's back).
 */
export async function findShareClash(
  trx: Kysely<DatabaseSchema>,
  move: FolderMove,
): Promise<string | undefined> {
  const shares = await sharedPathsUnder(trx, move);
  for (const path of shares) {
    const target = move.to + path.slice(move.path.length);
    const held = await trx
      .selectFrom('files')
      .select('id')
      .where(underFolder(trx, { ...move, path: target }))
      // Parenthesized: underFolder is a conjunction without its own parentheses.
      .where(sql<boolean>`not (${underFolder(trx, move)})`)
      .limit(1)
      .executeTakeFirst();
    if (held) return target;
  }
  return undefined;
}

/** Re-keys the moved subtree's shares to their new paths (in the move's transaction). */
export async function moveShares(trx: Kysely<DatabaseSchema>, move: FolderMove): Promise<void> {
  const rows = await trx.deleteFrom('folder_shares').where(sharesUnder(trx, move)).returningAll().execute();
  if (rows.length === 0) return;
  await trx
    .insertInto('folder_shares')
    .values(rows.map((row) => ({ ...row, path: move.to + row.path.slice(move.path.length) })))
    // A share the target already had (a stale one of the same grantee) is the same share.
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** A folder delete ends the shares of its subtree: a later file at the same path is not shared. */
export async function deleteShares(trx: Kysely<DatabaseSchema>, folder: FolderRef): Promise<void> {
  await trx.deleteFrom('folder_shares').where(sharesUnder(trx, folder)).execute();
}

async function sharedPathsUnder(trx: Kysely<DatabaseSchema>, folder: FolderRef): Promise<string[]> {
  const rows = await trx
    .selectFrom('folder_shares')
    .select('path')
    .distinct()
    .where(sharesUnder(trx, folder))
    .execute();
  return rows.map((row) => row.path);
}
