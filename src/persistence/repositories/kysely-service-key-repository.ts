import type { Kysely, Selectable } from 'kysely';
import type { ServiceKey, ServiceKeyRepository } from '../../domain/identity/service-key-repository.ts';
import { isUniqueViolation } from '../database-errors.ts';
import type { DatabaseSchema, ServiceKeysTable } from '../database-schema.ts';

export class KyselyServiceKeyRepository implements ServiceKeyRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async create(key: ServiceKey): Promise<boolean> {
    try {
      await this.#db
        .insertInto('service_keys')
        .values({
          project_id: key.projectId,
          name: key.name,
          key_hash: key.keyHash,
          created_at: key.createdAt.getTime(),
        })
        .execute();
      return true;
    } catch (error) {
      // The (project, name) key: the name is taken. (A key_hash collision of 256 random bits is not a case.)
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async findByHash(keyHash: string): Promise<ServiceKey | undefined> {
    const row = await this.#db
      .selectFrom('service_keys')
      .selectAll()
      .where('key_hash', '=', keyHash)
      .executeTakeFirst();
    return row && toServiceKey(row);
  }

  async listByProject(projectId: string): Promise<ServiceKey[]> {
    const rows = await this.#db
      .selectFrom('service_keys')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('created_at')
      .orderBy('name')
      .execute();
    return rows.map(toServiceKey);
  }

  async delete(projectId: string, name: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('service_keys')
      .where('project_id', '=', projectId)
      .where('name', '=', name)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

function toServiceKey(row: Selectable<ServiceKeysTable>): ServiceKey {
  return {
    projectId: row.project_id,
    name: row.name,
    keyHash: row.key_hash,
    createdAt: new Date(Number(row.created_at)),
  };
}
