import { type ControlledTransaction, type Kysely, sql } from 'kysely';
import type {
  FolderMove,
  FolderMoveResult,
  FolderRef,
} from '../../../domain/folders/folder-change-repository.ts';
import { unavailable } from '../../../errors/errors.ts';
import { isUniqueViolation } from '../../database-errors.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { writeTransaction } from '../write-transaction.ts';
import { codePointLength, countUnderFolder, lockFolderAgainstWriters, underFolder } from './folder-range.ts';
import { insertEventsInBatches } from './insert-events-in-batches.ts';
import { findShareClash, moveShares } from './move-folder-shares.ts';

type MoveResult = FolderMoveResult;

/**
 * A file that takes a target path after the clash check and before the update (an upload, a
 * copy, a single move on another node) makes the update fail on the unique path: the move
 * starts over, and its clash check then names that file.
 */
const attempts = 3;

/**
 * No filePath holds a control character (validate-file-path.ts): a path behind one is free
 * whatever the owner holds, a place to park the moving files on the way.
 */
const parking = '\u0001';

/** FolderChangeRepository.moveFolder: every file under the folder, in one transaction, or none. */
export async function moveFolder(db: Kysely<DatabaseSchema>, move: FolderMove): Promise<MoveResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeTransaction(db, (trx) => moveOnce(trx, move));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Paths taken again and again under the move: contention, worth a retry by the caller.
      if (attempt === attempts) throw unavailable('database', error);
    }
  }
}

async function moveOnce(trx: ControlledTransaction<DatabaseSchema>, move: FolderMove): Promise<MoveResult> {
  await lockFolderAgainstWriters(trx, move);
  const fileCount = await countUnderFolder(trx, move);
  if (fileCount === 0) return { refused: 'empty' };
  if (fileCount > move.maxFiles) return { refused: 'tooLarge', fileCount };
  const conflict = await findFirstClash(trx, move);
  if (conflict !== undefined) return { conflict };
  const shareClash = await findShareClash(trx, move);
  if (shareClash !== undefined) return { shareConflict: shareClash };
  const held = await findFirstHeld(trx, move);
  if (held !== undefined) return { held };
  const rows = await updatePaths(trx, move);
  // The update judges the hold too and skips a held file: one held since the probe (PostgreSQL
  // reads committed rows anew) stays behind under the folder, and then nothing moves.
  const heldBehind = await findFirstHeld(trx, move);
  if (heldBehind !== undefined) {
    await trx.rollback().execute();
    return { held: heldBehind };
  }
  // Files that arrived between the count and the update (PostgreSQL reads committed rows anew).
  if (rows.length > move.maxFiles) {
    await trx.rollback().execute();
    return { refused: 'tooLarge', fileCount: rows.length };
  }
  if (rows.length === 0) return { refused: 'empty' };
  const moved = rows.map((row) => ({
    id: row.id,
    filePath: row.file_path,
    previousFilePath: move.path + row.file_path.slice(move.to.length),
  }));
  await moveShares(trx, move);
  await insertEventsInBatches(trx, move.eventsOf(moved));
  return { moved };
}

/**
 * The first file under the folder, in path order, whose target path a file outside the moved
 * set holds: one probe of the unique (project, creator, path) index per file. A target inside
 * the folder (a move to an ancestor) is held by a file that moves too, so it is no clash.
 */
async function findFirstClash(trx: Kysely<DatabaseSchema>, move: FolderMove): Promise<string | undefined> {
  const rest = codePointLength(move.path) + 1;
  const target = sql`cast(${move.to} as text) || substr(s.file_path, ${rest})`;
  // One index probe per moved file, as a scalar subquery the planner cannot turn into a join:
  // as a join (or an EXISTS) it underestimated the moved files (a substr() filter is a guess)
  // and walked every file of the owner against every moved one: 42–55 s for 10,000 on PostgreSQL.
  const { rows } = await sql<{ file_path: string }>`
    select clash as file_path from (
      select (select t.file_path from files t
        where t.project_id = s.project_id and t.creator_id = s.creator_id and t.file_path = ${target}
          and not (${underFolder(trx, move, 't')})
        limit 1) as clash
      from files s where ${underFolder(trx, move, 's')}) as probed
    where clash is not null
    order by clash limit 1`.execute(trx);
  return rows[0]?.file_path;
}

/** The first file under the folder, in path order, on a legal hold (an index range, filtered). */
async function findFirstHeld(trx: Kysely<DatabaseSchema>, folder: FolderRef): Promise<string | undefined> {
  const row = await trx
    .selectFrom('files')
    .select('file_path')
    .where(underFolder(trx, folder))
    .where('hold_reason', 'is not', null)
    .orderBy('file_path')
    .limit(1)
    .executeTakeFirst();
  return row?.file_path;
}

/**
 * Rewrites the paths in one statement, which locks the rows it changes (a single move or
 * delete of one of them waits, or wins and the row is no longer under the folder). A
 * non-deferrable unique index is checked row by row, so a move to an ancestor (`a/b/` → `a/`,
 * where `a/b/b/x` takes `a/b/x`'s old path) parks the files first.
 */
async function updatePaths(trx: Kysely<DatabaseSchema>, move: FolderMove) {
  let from = move.path;
  const notHeld = sql<boolean>`hold_reason is null`;
  if (isAncestor(move.to, move.path)) {
    await trx
      .updateTable('files')
      .set({ file_path: sql`cast(${parking} as text) || file_path` })
      .where(underFolder(trx, move))
      .where(notHeld)
      .execute();
    from = parking + move.path;
  }
  const now = move.now.getTime();
  return trx
    .updateTable('files')
    .set((eb) => ({
      file_path: sql`cast(${move.to} as text) || substr(file_path, ${codePointLength(from) + 1})`,
      version: eb('version', '+', 1),
      updated_at: now,
    }))
    .where(underFolder(trx, { ...move, path: from }))
    .where(notHeld)
    .returning(['id', 'file_path'])
    .execute();
}

function isAncestor(folder: string, path: string): boolean {
  return path.startsWith(folder);
}
