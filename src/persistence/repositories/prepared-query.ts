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

/** Anything that runs a compiled query: the database handle or a transaction. */
export type QueryExecutor = Pick<Kysely<DatabaseSchema>, 'executeQuery'>;

/**
 * A statement built and compiled once and run on the executor given at each call (so inside
 * a transaction too). `build` gets markers in place of its arguments; the constants it adds
 * itself stay as compiled, so arguments need not be the only parameters nor in their order.
 */
export function prepareStatement<Row, Args extends unknown[]>(
  build: (...markers: Args) => Compilable<Row>,
  arity: Args['length'],
): (executor: QueryExecutor, ...args: Args) => Promise<Row[]> {
  const markers = Array.from({ length: arity }, (_, index) => `\u0000prepared-argument-${index}`);
  const run = prepareWithMarkers(() => build(...(markers as Args)), markers);
  return (executor, ...args) => run(executor, args);
}

/**
 * prepareStatement for a statement that takes one row object (an insert): one marker per
 * column, the columns being those of the first call's row (later rows must have the same).
 */
export function prepareRowStatement<Row, Values extends Record<string, unknown>>(
  build: (values: Values) => Compilable<Row>,
): (executor: QueryExecutor, values: Values) => Promise<Row[]> {
  let columns: string[] | undefined;
  let run: ((executor: QueryExecutor, args: readonly unknown[]) => Promise<Row[]>) | undefined;
  return (executor, values) => {
    if (columns === undefined || run === undefined) {
      const names = Object.keys(values);
      const markers = names.map((column) => `\u0000prepared-column-${column}`);
      columns = names;
      run = prepareWithMarkers(
        () => build(Object.fromEntries(names.map((column, index) => [column, markers[index]])) as Values),
        markers,
      );
    }
    if (Object.keys(values).length !== columns.length)
      throw new Error('prepareRowStatement: columns changed');
    return run(
      executor,
      columns.map((column) => values[column]),
    );
  };
}

function prepareWithMarkers<Row>(
  build: () => Compilable<Row>,
  markers: readonly string[],
): (executor: QueryExecutor, args: readonly unknown[]) => Promise<Row[]> {
  let compiled: CompiledQuery<Row> | undefined;
  // Per compiled parameter: the index of the argument it takes, or -1 for a constant.
  let slots: number[] = [];
  return async (executor, args) => {
    if (compiled === undefined) {
      compiled = build().compile();
      slots = compiled.parameters.map((parameter) => markers.indexOf(parameter as string));
      if (new Set(slots.filter((slot) => slot >= 0)).size !== markers.length)
        throw new Error('prepareStatement: every argument must appear in the statement');
    }
    const constants = compiled.parameters;
    const parameters = slots.map((slot, index) => (slot >= 0 ? args[slot] : constants[index]));
    const result = await executor.executeQuery<Row>({ ...compiled, parameters });
    return result.rows;
  };
}
