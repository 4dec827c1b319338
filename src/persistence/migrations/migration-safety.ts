/**
 * Whether each migration is safe while nodes of the previous release still run on the migrated
 * database: the question a rolling upgrade asks (docs/deploy.md, "Upgrading";
 * `coffer migrate --dry-run` prints it).
 * - `expand`: it only adds what older nodes never read or write (a table, an index, a column
 *   with a default or null, triggers that keep derived rows for every writer), and what older
 *   nodes write stays right for newer ones. Older nodes may lack the new feature; where a
 *   barrier is involved they refuse (a credential they cannot read), never grant.
 * - `contract`: older nodes, still writing, would leave rows a newer node misreads, skip a
 *   barrier the newer release enforces, or remove bytes the newer release keeps (their blob
 *   collector knows fewer owners). Upgrade every node before it runs: stop the older ones,
 *   migrate, start the newer ones.
 * Judged by reading each migration and the writes of the release before it; in doubt, `contract`.
 * On PostgreSQL a column added to a table that older nodes read as named prepared statements
 * (`select *` of files, the hot path) changes those statements' result type: each older
 * connection's next run fails once (0A000, "cached plan must not change result type") and the
 * connection is dropped. That costs requests, so such a column is `contract` (0045 found it).
 *
 * THE RULE for a new migration: add one line here in the same commit, `expand` only if every
 * write the previous release makes stays correct on the new schema and nothing it reads goes
 * away; the test (migration-safety.test.ts) fails for a registered migration without a line.
 */
export type MigrationSafety = { kind: 'expand' | 'contract'; reason: string };

const expand = (reason: string): MigrationSafety => ({ kind: 'expand', reason });
const contract = (reason: string): MigrationSafety => ({ kind: 'contract', reason });

export const migrationSafety: Readonly<Record<string, MigrationSafety>> = {
  '0001_initial_schema': expand('the first schema: no older release runs beside it'),
  '0002_files_creator_index': expand('an index only'),
  '0003_file_blob_versions': contract(
    'older nodes PUT without a pending blob version, which a newer verify pins and downloads serve',
  ),
  '0004_rate_limit_buckets': expand('a new table; older nodes count their limits in memory meanwhile'),
  '0005_access_epoch': expand('a new table kept by triggers, which fire for older writers too'),
  '0006_acl_listing_keys': contract(
    'older nodes insert ACL entries without project_id and file_created_at, so newer listings miss them',
  ),
  '0007_refresh_tokens': expand('new tables; older nodes issue no refresh tokens'),
  '0008_project_settings': expand("a column defaulting to '{}' (every default)"),
  '0009_file_custom_data': expand('a nullable column older nodes never write'),
  '0010_file_links_generation': contract(
    'older nodes remove ACL entries without a bump: links a newer node signed would outlive an unshare',
  ),
  '0011_unverified_expiry_index': expand('an index only'),
  '0012_file_blob_sharing': contract(
    "older nodes' deletes and blob collector ignore copies: they would remove bytes a copy still serves",
  ),
  '0013_app_credentials': expand(
    "a new table; older nodes read only the project's first credential, which a revocation blanks",
  ),
  '0014_upload_contracts': contract(
    "older nodes' PUTs do not hold a body to the declared length, type and SHA-256",
  ),
  '0015_storage_usage': expand('usage kept by triggers on files, which fire for older writers too'),
  '0016_sqlite_path_index': expand('an index only'),
  '0017_operators': expand('new tables for the console'),
  '0018_console_sign_in_links': expand('a new table and an index'),
  '0019_resumable_uploads': contract(
    "older nodes' blob collector does not read resumable_uploads: it may remove an upload's bytes",
  ),
  '0020_renditions': contract("older nodes' blob collector does not read renditions: it would remove them"),
  '0021_events': contract(
    'older nodes change files without writing events: the audit log and webhooks would miss them',
  ),
  '0022_mail_outbox': expand('a new table'),
  '0023_session_revocation': contract(
    'older nodes create sessions without the family secret newer nodes derive successor tokens from',
  ),
  '0024_account_tokens': expand('a new table and a nullable column older nodes never write'),
  '0025_file_row_stamp': expand('a column moved by triggers, which fire for older writers too'),
  '0026_service_keys': expand('a new table; older nodes refuse service keys'),
  '0028_rendition_refusals': expand('a new table'),
  '0029_resumable_upload_checkpoints': contract(
    'older nodes advance an upload without its SHA-256 state: a newer node resuming it would hash wrong',
  ),
  '0030_folders': expand('a table and a generated column kept by triggers, for older writers too'),
  '0031_folder_tallies_per_statement': expand('triggers replaced by equivalent ones'),
  '0032_folder_shares': expand(
    'a new table older nodes do not grant from (they refuse), and a defaulted column',
  ),
  '0033_user_identities': expand('new tables; older nodes offer no provider sign-in'),
  '0034_versions_and_trash': contract(
    "older nodes ignore holds and the trash, and their blob collector would remove earlier versions' bytes",
  ),
  '0035_media_meta': expand('nullable columns; verified videos queued for a summary again'),
  '0036_content_crc32': contract(
    'older nodes advance a resumable upload without its CRC-32 state: a newer node resuming it would be wrong',
  ),
  '0037_search_indexes': expand('search tables kept by triggers on files, which fire for older writers too'),
  '0038_archives': expand('new tables; archives own no bytes'),
  '0039_mfa': contract('older nodes sign in users who turned a second factor on with their password alone'),
  '0040_passkeys': expand('new tables; older nodes offer no passkey sign-in'),
  '0041_email_change_tokens': expand('a nullable column older nodes never write'),
  '0042_session_details': expand('nullable columns: sessions older nodes start list no address or method'),
  '0043_upload_scans': contract(
    'older nodes verify uploads without scanning them: unscanned bytes would become readable',
  ),
  '0044_file_quarantine': contract('older nodes serve quarantined files'),
  '0045_upload_admissions': contract(
    "older nodes' prepared reads of files fail once per connection (cached plan)",
  ),
  '0046_delivery_attempts': expand("a new table; older nodes' attempts are not listed"),
  '0047_create_file_function': expand(
    'a PostgreSQL procedure older nodes never call; it writes the rows their upload requests write',
  ),
  '0048_upload_write_path': expand(
    "a trigger skips a write no reader needs; SQLite: older servers' size sorts sort, not walk",
  ),
  '0049_one_row_triggers': expand(
    'PostgreSQL: the same rows written by cheaper triggers, for older writers too',
  ),
};
