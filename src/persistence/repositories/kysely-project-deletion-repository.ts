import type { Kysely } from 'kysely';
import type {
  FileBlobs,
  ProjectDeletionRepository,
} from '../../domain/identity/project-deletion-repository.ts';
import type { DatabaseSchema } from '../database-schema.ts';

/** Batches are `delete … where id in (select id … limit n)`: bounded statements on both dialects. */
export class KyselyProjectDeletionRepository implements ProjectDeletionRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async count(projectId: string): Promise<{ users: number; files: number }> {
    const [users, files] = await Promise.all(
      (['users', 'files'] as const).map((table) =>
        this.#db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .where('project_id', '=', projectId)
          .executeTakeFirstOrThrow(),
      ),
    );
    return { users: Number(users!.count), files: Number(files!.count) };
  }

  async deleteAppCredentials(projectId: string): Promise<number> {
    // Service keys reach the project too: they go first.
    await this.#db.deleteFrom('service_keys').where('project_id', '=', projectId).execute();
    const result = await this.#db
      .deleteFrom('app_credentials')
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async findFiles(projectId: string, limit: number): Promise<FileBlobs[]> {
    // Live files first, then trashed ones (issue 38): trashed_files.project_id names the project too.
    let rows = await this.#db
      .selectFrom('files')
      .select(['id', 'blob_version', 'upload_blob_version'])
      .where('project_id', '=', projectId)
      .orderBy('id')
      .limit(limit)
      .execute();
    if (rows.length === 0)
      rows = await this.#db
        .selectFrom('trashed_files')
        .select(['id', 'blob_version', 'upload_blob_version'])
        .where('project_id', '=', projectId)
        .orderBy('id')
        .limit(limit)
        .execute();
    return rows.map((row) => ({
      fileId: row.id,
      blobVersions: [row.blob_version, row.upload_blob_version].filter((version) => version !== null),
    }));
  }

  async deleteFiles(fileIds: readonly string[]): Promise<number> {
    if (fileIds.length === 0) return 0;
    // The ACL entries go with their file (ON DELETE CASCADE), versions by trigger; a trashed file's too.
    const result = await this.#db.deleteFrom('files').where('id', 'in', fileIds).executeTakeFirst();
    const trashed = await this.#db.deleteFrom('trashed_files').where('id', 'in', fileIds).executeTakeFirst();
    return Number(result.numDeletedRows) + Number(trashed.numDeletedRows);
  }

  async deleteSessions(projectId: string, limit: number): Promise<number> {
    const result = await this.#db
      .deleteFrom('refresh_token_families')
      .where(
        'id',
        'in',
        this.#db
          .selectFrom('refresh_token_families')
          .select('id')
          .where('project_id', '=', projectId)
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteUsers(projectId: string, limit: number): Promise<number> {
    const result = await this.#db
      .deleteFrom('users')
      .where(
        'id',
        'in',
        this.#db.selectFrom('users').select('id').where('project_id', '=', projectId).limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteProject(projectId: string): Promise<boolean> {
    // Folder shares outlive their files (a share reaches files to come): they go with the project.
    await this.#db.deleteFrom('folder_shares').where('project_id', '=', projectId).execute();
    // Sign-in rows name the project (a foreign key): identities and flows go first (issue 37).
    await this.#db.deleteFrom('user_identities').where('project_id', '=', projectId).execute();
    await this.#db.deleteFrom('oauth_flows').where('project_id', '=', projectId).execute();
    // So do passkeys and their challenges (issue 41).
    await this.#db.deleteFrom('passkeys').where('project_id', '=', projectId).execute();
    await this.#db.deleteFrom('passkey_challenges').where('project_id', '=', projectId).execute();
    for (const table of ['user_totp', 'recovery_codes', 'mfa_tokens'] as const)
      await this.#db.deleteFrom(table).where('project_id', '=', projectId).execute();
    // Archives (issue 40) would only answer 410 now, but they name the project: they go too.
    const archives = this.#db.selectFrom('archives').select('id').where('project_id', '=', projectId);
    await this.#db.deleteFrom('archive_entries').where('archive_id', 'in', archives).execute();
    await this.#db.deleteFrom('archives').where('project_id', '=', projectId).execute();
    const result = await this.#db.deleteFrom('projects').where('id', '=', projectId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
