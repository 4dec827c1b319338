import type { Kysely } from 'kysely';
import type { AccessEpochRepository } from '../../domain/identity/access-epoch-repository.ts';
import type { DatabaseSchema } from '../database-schema.ts';
import { prepareQuery } from './prepared-query.ts';

export class KyselyAccessEpochRepository implements AccessEpochRepository {
  /** Read by every process a few times a second: compiled once (prepared-query.ts). */
  readonly #select: (id: number) => Promise<{ value: number }[]>;

  constructor(db: Kysely<DatabaseSchema>) {
    this.#select = prepareQuery(
      db,
      (id: number) => db.selectFrom('access_epoch').select('value').where('id', '=', id),
      [0],
    );
  }

  async read(): Promise<number> {
    // The table's one row (migrations/access-epoch.ts).
    const [row] = await this.#select(1);
    if (row === undefined) throw new Error('access_epoch has no row: run the migrations');
    return row.value;
  }
}
