import type { Kysely } from 'kysely';
import type { AuditPeople } from '../../domain/events/audit-people.ts';
import type { DatabaseSchema } from '../database-schema.ts';

/** The emails an audit page names: one read of users and one of operators, each only when asked. */
export class KyselyAuditPeople implements AuditPeople {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async emailsOf(projectId: string, ids: { users: readonly string[]; operators: readonly string[] }) {
    // A page is at most 100 events, so at most 200 ids: well within a statement's parameters.
    const [users, operators] = await Promise.all([
      ids.users.length === 0
        ? []
        : this.#db
            .selectFrom('users')
            .select(['id', 'email'])
            .where('project_id', '=', projectId)
            .where('id', 'in', [...ids.users])
            .execute(),
      ids.operators.length === 0
        ? []
        : this.#db
            .selectFrom('operators')
            .select(['id', 'email'])
            .where('id', 'in', [...ids.operators])
            .execute(),
    ]);
    return {
      users: new Map(users.map((row) => [row.id, row.email])),
      operators: new Map(operators.map((row) => [row.id, row.email])),
    };
  }
}
