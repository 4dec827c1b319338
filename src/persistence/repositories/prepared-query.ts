import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { DatabaseSchema } from '../database-schema.ts';

/**
 * A query built and compiled once, then run with new parameter values. Kysely otherwise
 * rebuilds and recompiles its query tree on every call: a visible share of the hot path
 * (every authenticated request reads the user, every file call the file). The query must
 * take its parameters in the order `run` gives them.
 */
export function prepareQuery<Row, Args extends unknown[]>(
  db: Kysely<DatabaseSchema>,
  build: (...placeholders: Args) => Compilable<Row>,
  placeholders: Args,
): (...args: Args) => Promise<Row[]> {
  let compiled: CompiledQuery<Row> | undefined;
  return async (...args) => {
    compiled ??= build(...placeholders).compile();
    if (compiled.parameters.length !== args.length) throw new Error('prepareQuery: parameter count changed');
    const result = await db.executeQuery<Row>({ ...compiled, parameters: args });
    return result.rows;
  };
}
