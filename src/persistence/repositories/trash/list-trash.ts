import type { Kysely, Selectable } from 'kysely';
import type { AclEntry } from '../../../domain/files/file-record.ts';
import type {
  TrashedFile,
  TrashOwner,
  TrashPosition,
  TrashScope,
} from '../../../domain/trash/trash-repository.ts';
import type { DatabaseSchema, TrashedFilesTable } from '../../database-schema.ts';
import { toAclEntry, toFileRecord } from '../files/file-rows.ts';
import { findFolderAcls } from '../files/folder-acl-rows.ts';

type TrashedRow = Selectable<TrashedFilesTable>;

/** TrashRepository.find. */
export async function findTrashed(
  db: Kysely<DatabaseSchema>,
  projectId: string,
  id: string,
): Promise<TrashedFile | undefined> {
  const rows = await db
    .selectFrom('trashed_files')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .execute();
  return (await toTrashedFiles(db, rows))[0];
}

/**
 * TrashRepository.list: trashed_files_owner's range (one owner) or trashed_files_age's (every
 * owner of the project), read backwards from the position.
 */
export async function listTrash(
  db: Kysely<DatabaseSchema>,
  scope: TrashScope,
  page: { after?: TrashPosition; limit: number },
): Promise<TrashedFile[]> {
  let query = db.selectFrom('trashed_files').selectAll().where('project_id', '=', scope.projectId);
  if (scope.ownerId !== undefined) query = query.where('creator_id', '=', scope.ownerId);
  const { after } = page;
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('trashed_at', '<', after.trashedAt),
        eb.and([eb('trashed_at', '=', after.trashedAt), eb('id', '<', after.id)]),
      ]),
    );
  const rows = await query.orderBy('trashed_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
  return toTrashedFiles(db, rows);
}

/** TrashRepository.listOldestIds. */
export async function listOldestIds(
  db: Kysely<DatabaseSchema>,
  owner: TrashOwner,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('trashed_files')
    .select('id')
    .where('project_id', '=', owner.projectId)
    .where('creator_id', '=', owner.ownerId)
    .orderBy('trashed_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** TrashRepository.listExpiredIds: trashed_files_age's range. */
export async function listExpiredIds(
  db: Kysely<DatabaseSchema>,
  projectId: string,
  before: number,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('trashed_files')
    .select('id')
    .where('project_id', '=', projectId)
    .where('trashed_at', '<', before)
    .orderBy('trashed_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** TrashRepository.listProjectIds: a walk of trashed_files_age's leading column. */
export async function listTrashProjectIds(db: Kysely<DatabaseSchema>): Promise<string[]> {
  const rows = await db.selectFrom('trashed_files').select('project_id').distinct().execute();
  return rows.map((row) => row.project_id);
}

/** TrashRepository.trashBytes. */
export async function readTrashBytes(db: Kysely<DatabaseSchema>, owner: TrashOwner): Promise<number> {
  const row = await db
    .selectFrom('storage_usage')
    .select('trash_bytes')
    .where('project_id', '=', owner.projectId)
    .where('user_id', '=', owner.ownerId)
    .executeTakeFirst();
  return Number(row?.trash_bytes ?? 0);
}

/** Trashed rows as the records they were, with their ACLs and the folder shares of their paths. */
export async function toTrashedFiles(
  db: Kysely<DatabaseSchema>,
  rows: readonly TrashedRow[],
): Promise<TrashedFile[]> {
  if (rows.length === 0) return [];
  const aclRows = await db
    .selectFrom('trashed_file_acl')
    .select(['file_id', 'scope', 'identifier'])
    .where(
      'file_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('file_id')
    .orderBy('position')
    .execute();
  const acls = new Map<string, AclEntry[]>(rows.map((row) => [row.id, []]));
  for (const row of aclRows) acls.get(row.file_id)?.push(toAclEntry(row.scope, row.identifier));
  const folderAcls = await findFolderAcls(db, rows);
  return rows.map((row) => ({
    file: toFileRecord(row, acls.get(row.id) ?? [], folderAcls.get(row.id) ?? []),
    trashedAt: new Date(Number(row.trashed_at)),
    trashedBy: row.trashed_by,
    heldBytes: Number(row.held_bytes),
  }));
}
