import { type Kysely, type Selectable, SqliteAdapter, sql } from 'kysely';
import type { NewProject, Project, ProjectRepository } from '../../domain/identity/project-repository.ts';
import type { ProjectSettings } from '../../domain/identity/project-settings.ts';
import { readStoredSettings } from '../../domain/identity/read-stored-settings.ts';
import { validationFailed } from '../../errors/errors.ts';
import { isUniqueViolation } from '../database-errors.ts';
import type { DatabaseSchema, ProjectsTable } from '../database-schema.ts';
import { writeTransaction } from './write-transaction.ts';

export class KyselyProjectRepository implements ProjectRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async create(project: NewProject): Promise<Project> {
    const row = {
      id: project.id,
      name: project.name,
      app_id: project.appId,
      app_secret_hash: project.appSecretHash,
      allowed_origins: JSON.stringify(project.allowedOrigins),
      admin_role: project.adminRole,
      settings: JSON.stringify(project.settings),
      created_at: Date.now(),
    };
    try {
      await writeTransaction(this.#db, async (trx) => {
        await trx.insertInto('projects').values(row).execute();
        // The first app credential (migrations/app-credentials.ts): the one access reads.
        await trx
          .insertInto('app_credentials')
          .values({
            app_id: row.app_id,
            project_id: row.id,
            secret_hash: row.app_secret_hash,
            created_at: row.created_at,
          })
          .execute();
      });
    } catch (error) {
      // There is no PROJECT_EXISTS code; app ids are random, so the name is what collided.
      if (isUniqueViolation(error))
        throw validationFailed(`a project named ${JSON.stringify(project.name)} exists`);
      throw error;
    }
    return toProject(row);
  }

  async findById(id: string): Promise<Project | undefined> {
    const row = await this.#db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toProject(row);
  }

  async findByName(name: string): Promise<Project | undefined> {
    const row = await this.#db.selectFrom('projects').selectAll().where('name', '=', name).executeTakeFirst();
    return row && toProject(row);
  }

  async findByAppId(appId: string): Promise<Project | undefined> {
    const row = await this.#db
      .selectFrom('projects')
      .selectAll('projects')
      .innerJoin('app_credentials', 'app_credentials.project_id', 'projects.id')
      .where('app_credentials.app_id', '=', appId)
      .executeTakeFirst();
    return row && toProject(row);
  }

  async updateSettings(id: string, settings: ProjectSettings): Promise<Project | undefined> {
    const row = await this.#db
      .updateTable('projects')
      .set({ settings: JSON.stringify(settings) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toProject(row);
  }

  async list(): Promise<Project[]> {
    const rows = await this.#db.selectFrom('projects').selectAll().orderBy('name').execute();
    return rows.map(toProject);
  }

  async changeAllowedOrigins(
    id: string,
    change: { add: readonly string[]; remove: readonly string[] },
  ): Promise<Project | undefined> {
    return writeTransaction(this.#db, async (trx) => {
      // Two operators changing origins at once must not lose one change: SQLite's BEGIN
      // IMMEDIATE serializes them, PostgreSQL locks the row.
      let query = trx.selectFrom('projects').select('allowed_origins').where('id', '=', id);
      if (!(trx.getExecutor().adapter instanceof SqliteAdapter)) query = query.forUpdate();
      const found = await query.executeTakeFirst();
      if (!found) return undefined;
      const kept = parseOrigins(found.allowed_origins).filter((origin) => !change.remove.includes(origin));
      const origins = [...new Set([...kept, ...change.add])];
      const row = await trx
        .updateTable('projects')
        .set({ allowed_origins: JSON.stringify(origins) })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toProject(row);
    });
  }

  async isOriginAllowedAnywhere(origin: string): Promise<boolean> {
    // LIKE narrows the rows in SQL (its case-insensitivity on SQLite only widens the net);
    // the parsed array decides exactly.
    const rows = await this.#db
      .selectFrom('projects')
      .select('allowed_origins')
      .where(sql<boolean>`allowed_origins like ${`%${escapeLike(JSON.stringify(origin))}%`} escape '\\'`)
      .execute();
    return rows.some((row) => parseOrigins(row.allowed_origins).includes(origin));
  }
}

/** Makes text match itself literally in a LIKE pattern with `escape '\'`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function parseOrigins(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function toProject(row: Selectable<ProjectsTable>): Project {
  return {
    id: row.id,
    name: row.name,
    appId: row.app_id,
    allowedOrigins: parseOrigins(row.allowed_origins),
    adminRole: row.admin_role,
    // Projects whose settings never named admin roles keep the one they were created with.
    settings: readStoredSettings(row.settings, { adminRoles: [row.admin_role] }),
    createdAt: new Date(row.created_at),
  };
}
