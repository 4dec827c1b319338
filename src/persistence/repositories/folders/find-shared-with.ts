import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { AclScope } from '../../../domain/files/file-record.ts';
import {
  type SharedItem,
  type SharedPosition,
  type SharedQuery,
  type SharedSet,
  sharedSets,
} from '../../../domain/folders/shared-with-me-repository.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import type { FileKey, KeptFileRecords } from '../files/kept-file-records.ts';

/** A file share: the file's key (its record is the kept one while its stamp holds), and when. */
type FileShareRow = FileKey & { shared_at: number | string };
type FolderShareRow = {
  owner_id: string;
  path: string;
  shared_at: number | string;
  file_count: number | string | null;
  total_bytes: number | string | null;
};

/** One read share before the page is cut: its set, its time, and its row. */
type Candidate = { set: number; sharedAt: number } & (
  | { kind: 'file'; row: FileShareRow }
  | { kind: 'folder'; row: FolderShareRow }
);

/**
 * "Shared with me" (issue 36, item 5). Each of the four sets is one range of its own index
 * (file_acl_grantee_shared, folder_shares_grantee: grantee, then share time newest first),
 * from the cursor on, `limit + 1` rows at most; the page is their merge. So a page reads at
 * most 4 × (limit + 1) index entries, whatever the number of shares, plus the records of the
 * files it answers: the kept ones when none changed since (ids and row stamps come with the
 * shares), else read whole in three queries, as a listing page's.
 */
export async function findSharedWith(
  db: Kysely<DatabaseSchema>,
  records: KeptFileRecords,
  query: SharedQuery,
): Promise<{ items: SharedItem[]; hasMore: boolean }> {
  // The four ranges at once: on PostgreSQL each is a round trip of its own (on a pool
  // connection), and waiting for one before asking the next made a page four of them long.
  const sets = await Promise.all(
    sharedSets.map(async (set, index): Promise<Candidate[]> => {
      const after = toAfter(index, set, query.after);
      if (set.kind === 'file') {
        const rows = await selectFileShares(db, query, set.scope, after);
        return rows.map((row) => ({ set: index, sharedAt: Number(row.shared_at), kind: 'file', row }));
      }
      const rows = await selectFolderShares(db, query, set.scope, after);
      return rows.map((row) => ({ set: index, sharedAt: Number(row.shared_at), kind: 'folder', row }));
    }),
  );
  const candidates = sets.flat();
  // Newest first, then by set; a stable sort keeps each set's own (index) order within a tie.
  candidates.sort((a, b) => b.sharedAt - a.sharedAt || a.set - b.set);
  const page = candidates.slice(0, query.limit);
  const fileRows = page.flatMap((one) => (one.kind === 'file' ? [one.row] : []));
  const files = await records.read(fileRows);
  // A file deleted between the two reads is left out, as a read a moment later would.
  const items = page.flatMap((one): SharedItem[] => {
    const { scope } = sharedSets[one.set]!;
    const sharedAt = new Date(one.sharedAt);
    if (one.kind === 'file') {
      const file = files.get(one.row.id);
      return file === undefined ? [] : [{ kind: 'file', scope, sharedAt, file }];
    }
    return [
      {
        kind: 'folder',
        scope,
        sharedAt,
        ownerId: one.row.owner_id,
        path: one.row.path,
        fileCount: Number(one.row.file_count ?? 0),
        totalBytes: Number(one.row.total_bytes ?? 0),
      },
    ];
  });
  return { items, hasMore: candidates.length > query.limit };
}

/**
 * The shares of the caller's id (or role) on files of other creators. `position > 0` is
 * written out, not bound: it is the partial index's own condition, which a planner must see.
 */
async function selectFileShares(
  db: Kysely<DatabaseSchema>,
  { projectId, grantee, limit }: SharedQuery,
  scope: AclScope,
  after: RawBuilder<unknown>,
): Promise<FileShareRow[]> {
  const acl = isSqlite(db) ? sql`file_acl indexed by file_acl_grantee_shared` : sql`file_acl`;
  const identifier = scope === 'user' ? grantee.userId : grantee.role;
  const { rows } = await sql<FileShareRow>`select files.id, files.row_stamp, file_acl.shared_at from ${acl}
    join files on files.id = file_acl.file_id
    where file_acl.project_id = ${projectId} and file_acl.scope = ${scope}
      and file_acl.identifier = ${identifier} and file_acl.position > 0 ${after}
      and files.creator_id <> ${grantee.userId}
    order by file_acl.shared_at desc, file_acl.file_id limit ${limit + 1}`.execute(db);
  return rows;
}

/**
 * The shares of the caller's id (or role) on other owners' folders, with the folder's counts
 * (a primary-key point; none while the owner has no file under it). folders.path has the
 * database's collation, folder_shares.path "C" on PostgreSQL: the join names one to compare in.
 */
async function selectFolderShares(
  db: Kysely<DatabaseSchema>,
  { projectId, grantee, limit }: SharedQuery,
  scope: AclScope,
  after: RawBuilder<unknown>,
): Promise<FolderShareRow[]> {
  const sharePath = isSqlite(db) ? sql`s.path` : sql`s.path collate "default"`;
  const identifier = scope === 'user' ? grantee.userId : grantee.role;
  const { rows } = await sql<FolderShareRow>`select s.owner_id, s.path, s.shared_at,
      f.file_count, f.total_bytes
    from folder_shares s left join folders f
      on f.project_id = s.project_id and f.owner_id = s.owner_id and f.path = ${sharePath}
    where s.project_id = ${projectId} and s.scope = ${scope} and s.identifier = ${identifier} ${after}
      and s.owner_id <> ${grantee.userId}
    order by s.shared_at desc, s.owner_id, s.path limit ${limit + 1}`.execute(db);
  return rows;
}

/**
 * Where a set resumes after the cursor's share. A set ordered before the cursor's one
 * continues with older shares only; the cursor's own set with older ones and, at the same
 * time, later keys; a set after it from the cursor's time on. `shared_at <= t` comes first,
 * so the index is entered at t rather than walked from the newest share.
 */
function toAfter(index: number, set: SharedSet, position: SharedPosition | undefined): RawBuilder<unknown> {
  if (position === undefined) return sql``;
  const at = position.sharedAt;
  const time = set.kind === 'file' ? sql.ref('file_acl.shared_at') : sql.ref('s.shared_at');
  const cursorSet = sharedSets.findIndex((one) => one.kind === position.kind && one.scope === position.scope);
  if (index < cursorSet) return sql`and ${time} < ${at}`;
  if (index > cursorSet) return sql`and ${time} <= ${at}`;
  const laterKey =
    position.kind === 'file'
      ? sql`file_acl.file_id > ${position.fileId}`
      : sql`(s.owner_id > ${position.ownerId} or (s.owner_id = ${position.ownerId} and s.path > ${position.path}))`;
  return sql`and ${time} <= ${at} and (${time} < ${at} or ${laterKey})`;
}
