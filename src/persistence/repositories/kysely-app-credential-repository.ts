import { type Kysely, type Selectable, SqliteAdapter } from 'kysely';
import type {
  AppCredential,
  AppCredentialRepository,
} from '../../domain/identity/app-credential-repository.ts';
import type { AppCredentialsTable, DatabaseSchema } from '../database-schema.ts';
import { writeTransaction } from './write-transaction.ts';

export class KyselyAppCredentialRepository implements AppCredentialRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async create(credential: AppCredential): Promise<void> {
    await this.#db
      .insertInto('app_credentials')
      .values({
        app_id: credential.appId,
        project_id: credential.projectId,
        secret_hash: credential.secretHash,
        created_at: credential.createdAt.getTime(),
      })
      .execute();
  }

  async findByAppId(appId: string): Promise<AppCredential | undefined> {
    const row = await this.#db
      .selectFrom('app_credentials')
      .selectAll()
      .where('app_id', '=', appId)
      .executeTakeFirst();
    return row && toAppCredential(row);
  }

  async listByProject(projectId: string): Promise<AppCredential[]> {
    const rows = await this.#db
      .selectFrom('app_credentials')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('created_at')
      .orderBy('app_id')
      .execute();
    return rows.map(toAppCredential);
  }

  async delete(
    projectId: string,
    appId: string,
    options: { keepOne: boolean },
  ): Promise<'deleted' | 'missing' | 'last'> {
    return writeTransaction(this.#db, async (trx) => {
      // Two revokes of a project's last two credentials must not both see the other one:
      // SQLite's BEGIN IMMEDIATE serializes them; PostgreSQL locks the project's row.
      if (!(trx.getExecutor().adapter instanceof SqliteAdapter)) {
        await trx.selectFrom('projects').select('id').where('id', '=', projectId).forUpdate().execute();
      }
      const rows = await trx
        .selectFrom('app_credentials')
        .select('app_id')
        .where('project_id', '=', projectId)
        .execute();
      if (!rows.some((row) => row.app_id === appId)) return 'missing';
      if (options.keepOne && rows.length === 1) return 'last';
      await trx.deleteFrom('app_credentials').where('app_id', '=', appId).execute();
      // The project's first credential also lives in projects: blank it, so that an import
      // of an older export cannot bring it back (migrations/app-credentials.ts).
      await trx
        .updateTable('projects')
        .set({ app_secret_hash: '' })
        .where('id', '=', projectId)
        .where('app_id', '=', appId)
        .execute();
      return 'deleted';
    });
  }
}

function toAppCredential(row: Selectable<AppCredentialsTable>): AppCredential {
  return {
    appId: row.app_id,
    projectId: row.project_id,
    secretHash: row.secret_hash,
    createdAt: new Date(Number(row.created_at)),
  };
}
