import { type Kysely, SqliteAdapter } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import type { DatabaseSchema } from '../database-schema.ts';
import { writeTransaction } from '../repositories/write-transaction.ts';
import { accessEpoch } from './access-epoch.ts';
import { accountTokens } from './account-tokens.ts';
import { aclListingKeys } from './acl-listing-keys.ts';
import { appCredentials } from './app-credentials.ts';
import { archives } from './archives.ts';
import { consoleSignInLinks } from './console-sign-in-links.ts';
import { contentCrc32 } from './content-crc32.ts';
import { createFileFunction } from './create-file-function.ts';
import { deliveryAttempts } from './delivery-attempts.ts';
import { emailChangeTokens } from './email-change-tokens.ts';
import { events } from './events.ts';
import { fileBlobSharing } from './file-blob-sharing.ts';
import { fileBlobVersions } from './file-blob-versions.ts';
import { fileCustomData } from './file-custom-data.ts';
import { fileLinksGeneration } from './file-links-generation.ts';
import { fileQuarantine } from './file-quarantine.ts';
import { fileRowStamp } from './file-row-stamp.ts';
import { filesCreatorIndex } from './files-creator-index.ts';
import { folderShares } from './folder-shares.ts';
import { folderTalliesPerStatement } from './folder-tallies-per-statement.ts';
import { folders } from './folders.ts';
import { initialSchema } from './initial-schema.ts';
import { mailOutbox } from './mail-outbox.ts';
import { mediaMeta } from './media-meta.ts';
import { mfa } from './mfa.ts';
import { oneRowTriggers } from './one-row-triggers.ts';
import { operators } from './operators.ts';
import { passkeys } from './passkeys.ts';
import { projectSettings } from './project-settings.ts';
import { rateLimitBuckets } from './rate-limit-buckets.ts';
import { refreshTokens } from './refresh-tokens.ts';
import { renditionRefusals } from './rendition-refusals.ts';
import { renditions } from './renditions.ts';
import { resumableUploadCheckpoints } from './resumable-upload-checkpoints.ts';
import { resumableUploads } from './resumable-uploads.ts';
import { searchIndexes } from './search-indexes.ts';
import { serviceKeys } from './service-keys.ts';
import { sessionDetails } from './session-details.ts';
import { sessionRevocation } from './session-revocation.ts';
import { sqlitePathIndex } from './sqlite-path-index.ts';
import { storageUsage } from './storage-usage.ts';
import { unverifiedExpiryIndex } from './unverified-expiry-index.ts';
import { uploadAdmissions } from './upload-admissions.ts';
import { uploadContracts } from './upload-contracts.ts';
import { uploadScans } from './upload-scans.ts';
import { uploadWritePath } from './upload-write-path.ts';
import { userIdentities } from './user-identities.ts';
import { versionsAndTrash } from './versions-and-trash.ts';

/**
 * Every migration, in code rather than a scanned folder (nothing to resolve at run time, and
 * the set is type-checked). Names sort in the order they run; never rename or remove one.
 */
const migrations: Record<string, Migration> = {
  '0001_initial_schema': initialSchema,
  '0002_files_creator_index': filesCreatorIndex,
  '0003_file_blob_versions': fileBlobVersions,
  '0004_rate_limit_buckets': rateLimitBuckets,
  '0005_access_epoch': accessEpoch,
  '0006_acl_listing_keys': aclListingKeys,
  '0007_refresh_tokens': refreshTokens,
  '0008_project_settings': projectSettings,
  '0009_file_custom_data': fileCustomData,
  '0010_file_links_generation': fileLinksGeneration,
  '0011_unverified_expiry_index': unverifiedExpiryIndex,
  '0012_file_blob_sharing': fileBlobSharing,
  '0013_app_credentials': appCredentials,
  '0014_upload_contracts': uploadContracts,
  '0015_storage_usage': storageUsage,
  '0016_sqlite_path_index': sqlitePathIndex,
  '0017_operators': operators,
  '0018_console_sign_in_links': consoleSignInLinks,
  '0019_resumable_uploads': resumableUploads,
  '0020_renditions': renditions,
  '0021_events': events,
  '0022_mail_outbox': mailOutbox,
  '0023_session_revocation': sessionRevocation,
  '0024_account_tokens': accountTokens,
  '0025_file_row_stamp': fileRowStamp,
  '0026_service_keys': serviceKeys,
  '0028_rendition_refusals': renditionRefusals,
  '0029_resumable_upload_checkpoints': resumableUploadCheckpoints,
  '0030_folders': folders,
  '0031_folder_tallies_per_statement': folderTalliesPerStatement,
  '0032_folder_shares': folderShares,
  '0033_user_identities': userIdentities,
  '0034_versions_and_trash': versionsAndTrash,
  '0035_media_meta': mediaMeta,
  '0036_content_crc32': contentCrc32,
  '0037_search_indexes': searchIndexes,
  '0038_archives': archives,
  '0039_mfa': mfa,
  '0040_passkeys': passkeys,
  '0041_email_change_tokens': emailChangeTokens,
  '0042_session_details': sessionDetails,
  '0043_upload_scans': uploadScans,
  '0044_file_quarantine': fileQuarantine,
  '0045_upload_admissions': uploadAdmissions,
  '0046_delivery_attempts': deliveryAttempts,
  '0047_create_file_function': createFileFunction,
  '0048_upload_write_path': uploadWritePath,
  '0049_one_row_triggers': oneRowTriggers,
};

/** The names of every migration, in the order they run. */
export const migrationNames = Object.keys(migrations).sort();

/** Every migration, for a Migrator (tests migrate to a named one with it). */
export const migrationProvider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Brings the schema up to date; safe when several processes start at once.
 * - PostgreSQL: Kysely's Migrator holds a session advisory lock while it migrates, and runs
 *   the migrations in one transaction.
 * - SQLite: Kysely's lock is a no-op there (it assumes one connection), so two processes
 *   could both see a migration as pending. Running the whole Migrator inside one
 *   BEGIN IMMEDIATE transaction makes the second wait, then find nothing left to do.
 */
export async function migrateToLatest(db: Kysely<DatabaseSchema>): Promise<void> {
  const migrate = async (handle: Kysely<DatabaseSchema>) => {
    const { error } = await new Migrator({ db: handle, provider: migrationProvider }).migrateToLatest();
    if (error !== undefined) throw toNewerReleaseError(error) ?? error;
  };
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await writeTransaction(db, migrate);
  } else {
    await migrate(db);
  }
}

/**
 * The database ran a migration this release does not have: a newer release migrated it (an old
 * node restarted during a rolling upgrade, or a rollback without a restore). Nothing this
 * release does can be right on that schema, and waiting does not change it: no retry.
 */
export class NewerReleaseError extends Error {}

/** Kysely's "previously executed migration … is missing" as a NewerReleaseError saying what to do. */
function toNewerReleaseError(error: unknown): NewerReleaseError | undefined {
  const missing = /^corrupted migrations: previously executed migration (\S+) is missing$/.exec(
    (error as Error)?.message ?? '',
  );
  return missing ? newerReleaseError(missing[1]!, error) : undefined;
}

/** The database ran `migrationName`, which this release does not have. */
export function newerReleaseError(migrationName: string, cause?: unknown): NewerReleaseError {
  return new NewerReleaseError(
    `the database was migrated by a newer release of Coffer (it ran migration ${migrationName}, which this release does not have): run that release, or restore a backup taken before the upgrade (docs/deploy.md, "Upgrading and rolling back")`,
    { cause },
  );
}
