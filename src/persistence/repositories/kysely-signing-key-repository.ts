import type { Kysely } from 'kysely';
import type { SigningKey, SigningKeyRepository } from '../../domain/keys/signing-key-repository.ts';
import type { DatabaseSchema } from '../database-schema.ts';

export class KyselySigningKeyRepository implements SigningKeyRepository {
  readonly #db: Kysely<DatabaseSchema>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#db = db;
  }

  async list(purpose: SigningKey['purpose']): Promise<SigningKey[]> {
    const rows = await this.#db
      .selectFrom('signing_keys')
      .selectAll()
      .where('purpose', '=', purpose)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      purpose,
      secret: Buffer.from(row.secret, 'base64'),
      createdAt: new Date(row.created_at),
    }));
  }

  /** A duplicate id fails with the driver's unique violation: nodes racing to create the first key rely on it. */
  async create(key: SigningKey): Promise<void> {
    await this.#db
      .insertInto('signing_keys')
      .values({
        id: key.id,
        purpose: key.purpose,
        secret: key.secret.toString('base64'),
        created_at: key.createdAt.getTime(),
      })
      .execute();
  }

  async delete(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.#db.deleteFrom('signing_keys').where('id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
