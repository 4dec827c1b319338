import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../database-schema.ts';

/** FileRepository.listIdsCreatedBy: a creator's file ids in id order, a page after `afterId`. */
export async function listIdsCreatedBy(
  db: Kysely<DatabaseSchema>,
  projectId: string,
  creatorId: string,
  page: { afterId?: string; limit: number },
): Promise<string[]> {
  // files_project_creator_idx (project_id, creator_id, id): an index range.
  let query = db
    .selectFrom('files')
    .select('id')
    .where('project_id', '=', projectId)
    .where('creator_id', '=', creatorId);
  if (page.afterId !== undefined) query = query.where('id', '>', page.afterId);
  const rows = await query.orderBy('id').limit(page.limit).execute();
  return rows.map((row) => row.id);
}

/** FileRepository.listIdsSharedWithUser: up to `limit` ids of the files whose ACL names the user. */
export async function listIdsSharedWithUser(
  db: Kysely<DatabaseSchema>,
  projectId: string,
  userId: string,
  limit: number,
): Promise<string[]> {
  // file_acl_listing_idx (project_id, scope, identifier, …): an index range.
  const rows = await db
    .selectFrom('file_acl')
    .select('file_id')
    .where('project_id', '=', projectId)
    .where('scope', '=', 'user')
    .where('identifier', '=', userId)
    .limit(limit)
    .execute();
  return rows.map((row) => row.file_id);
}
