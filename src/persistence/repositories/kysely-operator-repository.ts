import type { Kysely } from 'kysely';
import type { Operator, OperatorRepository } from '../../domain/operators/operator-repository.ts';
import { emailTaken } from '../../errors/errors.ts';
import { isUniqueViolation } from '../database-errors.ts';
import type { DatabaseSchema } from '../database-schema.ts';

type OperatorRow = { id: string; email: string; created_at: number };

export class KyselyOperatorRepository implements OperatorRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async create(operator: Operator & { passwordHash: string }): Promise<void> {
    try {
      await this.#db
        .insertInto('operators')
        .values({
          id: operator.id,
          email: operator.email,
          password_hash: operator.passwordHash,
          created_at: operator.createdAt.getTime(),
        })
        .execute();
    } catch (error) {
      throw isUniqueViolation(error) ? emailTaken() : error;
    }
  }

  async findByEmail(email: string) {
    const row = await this.#db
      .selectFrom('operators')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirst();
    return row && { ...toOperator(row), passwordHash: row.password_hash };
  }

  async list(): Promise<Operator[]> {
    const rows = await this.#db.selectFrom('operators').selectAll().orderBy('email').execute();
    return rows.map(toOperator);
  }

  async deleteByEmail(email: string): Promise<boolean> {
    const operator = await this.findByEmail(email);
    if (!operator) return false;
    // Sessions first: SQLite enforces the cascade only with foreign keys on, which a plain
    // SQL client may have left off; this leaves no session naming nobody either way.
    await this.#db.deleteFrom('operator_sessions').where('operator_id', '=', operator.id).execute();
    await this.#db.deleteFrom('operator_sign_in_links').where('operator_id', '=', operator.id).execute();
    const deleted = await this.#db.deleteFrom('operators').where('id', '=', operator.id).executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  }

  async createSession(session: { tokenHash: string; operatorId: string; createdAt: Date; expiresAt: Date }) {
    await this.#db
      .insertInto('operator_sessions')
      .values({
        token_hash: session.tokenHash,
        operator_id: session.operatorId,
        created_at: session.createdAt.getTime(),
        expires_at: session.expiresAt.getTime(),
      })
      .execute();
  }

  async findSession(tokenHash: string, now: Date): Promise<Operator | undefined> {
    const row = await this.#db
      .selectFrom('operator_sessions')
      .innerJoin('operators', 'operators.id', 'operator_sessions.operator_id')
      .select(['operators.id', 'operators.email', 'operators.created_at'])
      .where('operator_sessions.token_hash', '=', tokenHash)
      .where('operator_sessions.expires_at', '>', now.getTime())
      .executeTakeFirst();
    return row && toOperator(row);
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.#db.deleteFrom('operator_sessions').where('token_hash', '=', tokenHash).execute();
  }

  async createSignInLink(link: { tokenHash: string; operatorId: string; expiresAt: Date }, now: Date) {
    // Links nobody used are cleared as new ones are made: the table holds a few rows at most.
    await this.#db.deleteFrom('operator_sign_in_links').where('expires_at', '<=', now.getTime()).execute();
    await this.#db
      .insertInto('operator_sign_in_links')
      .values({
        token_hash: link.tokenHash,
        operator_id: link.operatorId,
        expires_at: link.expiresAt.getTime(),
      })
      .execute();
  }

  async consumeSignInLink(tokenHash: string, now: Date): Promise<Operator | undefined> {
    // One statement takes the row: of two requests with the same link, one gets it.
    const taken = await this.#db
      .deleteFrom('operator_sign_in_links')
      .where('token_hash', '=', tokenHash)
      .returning(['operator_id', 'expires_at'])
      .executeTakeFirst();
    if (!taken || Number(taken.expires_at) <= now.getTime()) return undefined;
    const row = await this.#db
      .selectFrom('operators')
      .select(['id', 'email', 'created_at'])
      .where('id', '=', taken.operator_id)
      .executeTakeFirst();
    return row && toOperator(row);
  }
}

function toOperator(row: OperatorRow): Operator {
  return { id: row.id, email: row.email, createdAt: new Date(Number(row.created_at)) };
}
