import type { Kysely } from 'kysely';
import type { StorageUsage, StorageUsageRepository } from '../../domain/ports.ts';
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
}
