import { type Kysely, sql } from 'kysely';
import type { FolderAclEntry } from '../../../domain/files/file-record.ts';
import type { QuotaLimits } from '../../../domain/files/storage-usage-repository.ts';
import { assertQuotas } from '../../../domain/files/upload-limits.ts';
import type { DatabaseSchema } from '../../database-schema.ts';
import { isSqlite } from '../../is-sqlite.ts';
import { quotaExceededState } from '../../migrations/create-file-function.ts';
import { prepareStatement } from '../prepared-query.ts';
import { retryConflicts } from '../write-transaction.ts';
import { foldersOf } from './folder-acl-rows.ts';

/** The columns of a new record's row (toNewFileRow) that are not the same for every record. */
type NewFileRow = {
  id: string;
  project_id: string;
  creator_id: string;
  file_path: string;
  permission_scope: string;
  upload_expires_at: number;
  created_at: number;
  custom_data: string | null;
  expected_size_bytes: number | null;
  expected_content_type: string | null;
  expected_sha256: string | null;
};

/**
 * Writes a new record, its creator's ACL entry and checks the quotas, in one statement, when its
 * path is free: answers the folder shares reaching it, or undefined when the path is taken
 * (nothing written; the caller's transaction replaces an abandoned upload or answers FILE_EXISTS).
 */
export type CreateFileAtOnce = (
  row: NewFileRow,
  quotas: QuotaLimits | undefined,
) => Promise<FolderAclEntry[] | undefined>;

type Answer = { shares: FolderAclEntry[] | null };

const noLimits: QuotaLimits = {
  userQuotaBytes: null,
  userQuotaFiles: null,
  projectQuotaBytes: null,
  projectQuotaFiles: null,
};

/**
 * PostgreSQL's upload request in one round trip (migration 0047, `create_file_at_once`),
 * compiled once; undefined on SQLite, whose group commit makes round trips free.
 */
export function prepareCreateFileAtOnce(db: Kysely<DatabaseSchema>): CreateFileAtOnce | undefined {
  if (isSqlite(db)) return undefined;
  const call = prepareStatement(
    (...args: unknown[]) => ({
      compile: () => sql<Answer>`call create_file_at_once(${sql.join(args)}, null)`.compile(db),
    }),
    16,
  );
  return async (row, quotas) => {
    const limits = quotas ?? noLimits;
    try {
      // One statement in autocommit: a deadlock's victim (an upload meeting a folder move) was
      // rolled back whole, and runs again as the transaction it replaces did.
      const [answer] = await retryConflicts(() =>
        call(
          db,
          row.id,
          row.project_id,
          row.creator_id,
          row.file_path,
          row.permission_scope,
          row.upload_expires_at,
          row.created_at,
          row.custom_data,
          row.expected_size_bytes,
          row.expected_content_type,
          row.expected_sha256,
          foldersOf(row.file_path),
          limits.userQuotaFiles,
          limits.userQuotaBytes,
          limits.projectQuotaFiles,
          limits.projectQuotaBytes,
        ),
      );
      return answer?.shares ?? undefined;
    } catch (error) {
      // The procedure rolled its writes back; the domain words the refusal from the usage it read.
      const { code, detail } = error as { code?: unknown; detail?: unknown };
      if (code === quotaExceededState && typeof detail === 'string') {
        const grew = { files: true, bytes: (row.expected_size_bytes ?? 0) > 0 };
        assertQuotas(JSON.parse(detail), limits, grew);
      }
      throw error;
    }
  };
}
