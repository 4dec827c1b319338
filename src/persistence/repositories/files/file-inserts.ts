import type { Insertable, Kysely } from 'kysely';
import type { DatabaseSchema, FilesTable } from '../../database-schema.ts';
import { prepareRowStatement, prepareStatement, type QueryExecutor } from '../prepared-query.ts';
import { type CreateFileAtOnce, prepareCreateFileAtOnce } from './create-file-at-once.ts';

/** Upload requests' and copies' writes, compiled once and run inside the caller's transaction. */
export type FileInserts = {
  /** Inserts the row unless its path is taken; answers the inserted id, or nothing. */
  claimPath: (trx: QueryExecutor, row: Insertable<FilesTable>) => Promise<unknown[]>;
  insertFile: (trx: QueryExecutor, row: Insertable<FilesTable>) => Promise<unknown[]>;
  insertCreatorAcl: (
    trx: QueryExecutor,
    fileId: string,
    creatorId: string,
    projectId: string,
    fileCreatedAt: number,
  ) => Promise<unknown[]>;
  /** PostgreSQL only: a new record on a free path in one statement, outside any transaction. */
  createAtOnce?: CreateFileAtOnce;
};

export function prepareFileInserts(db: Kysely<DatabaseSchema>): FileInserts {
  const insertFile = (row: Insertable<FilesTable>) => db.insertInto('files').values(row);
  return {
    createAtOnce: prepareCreateFileAtOnce(db),
    claimPath: prepareRowStatement((row: Insertable<FilesTable>) =>
      insertFile(row)
        .onConflict((oc) => oc.columns(['project_id', 'creator_id', 'file_path']).doNothing())
        .returning('id'),
    ),
    insertFile: prepareRowStatement(insertFile),
    insertCreatorAcl: prepareStatement(
      (fileId: string, creatorId: string, projectId: string, fileCreatedAt: number) =>
        db.insertInto('file_acl').values({
          file_id: fileId,
          scope: 'user',
          identifier: creatorId,
          position: 0,
          // The listing keys (migration 0006): the file's project and creation time.
          project_id: projectId,
          file_created_at: fileCreatedAt,
        }),
      4,
    ),
  };
}
