import type { Kysely } from 'kysely';
import type { StorageUsage, StorageUsageRepository } from '../../domain/files/storage-usage-repository.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { readStorageUsage } from './storage-usage-check.ts';

/** Reads the usage the triggers of migration 0015_storage_usage keep. */
export class KyselyStorageUsageRepository implements StorageUsageRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  find(owner: { projectId: string; userId: string }): Promise<{ user: StorageUsage; project: StorageUsage }> {
    return readStorageUsage(this.#db, owner);
  }

  async listProjects() {
    const rows = await this.#db
      .selectFrom('projects')
      .leftJoin('storage_usage', (join) =>
        join.onRef('storage_usage.project_id', '=', 'projects.id').on('storage_usage.user_id', '=', ''),
      )
      .select(['projects.id', 'projects.name', 'storage_usage.files', 'storage_usage.bytes'])
      .orderBy('projects.name')
      .execute();
    return rows.map((row) => ({
      projectId: row.id,
      name: row.name,
      files: Number(row.files ?? 0),
      bytes: Number(row.bytes ?? 0),
    }));
  }

  async forUsers(projectId: string, userIds: string[]) {
    if (userIds.length === 0) return new Map<string, StorageUsage>();
    const rows = await this.#db
      .selectFrom('storage_usage')
      .select(['user_id', 'files', 'bytes'])
      .where('project_id', '=', projectId)
      .where('user_id', 'in', userIds)
      .execute();
    return new Map(rows.map((row) => [row.user_id, { files: Number(row.files), bytes: Number(row.bytes) }]));
  }

  async topUsers(projectId: string, limit: number) {
    const rows = await this.#db
      .selectFrom('storage_usage')
      .innerJoin('users', 'users.id', 'storage_usage.user_id')
      .select(['storage_usage.user_id', 'users.email', 'storage_usage.files', 'storage_usage.bytes'])
      .where('storage_usage.project_id', '=', projectId)
      .where('storage_usage.user_id', '<>', '')
      .orderBy('storage_usage.bytes', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      userId: row.user_id,
      email: row.email,
      files: Number(row.files),
      bytes: Number(row.bytes),
    }));
  }
}
