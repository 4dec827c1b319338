import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { DatabaseSchema } from '../../database-schema.ts';

/** What changes the SQL of a listing; everything else is a parameter value. */
export type ListingShape = {
  isAdmin: boolean;
  hasPrefix: boolean;
  hasUpper: boolean;
  /** The files come from the project's path range (SQLite, a prefix few files hold). */
  byPath: boolean;
};
export type ListingValues = {
  projectId: string;
  readerId: string;
  readerRole: string;
  prefix: string;
  upper: string;
  /** How many keys to read from each set. */
  count: number;
  /** How many paths of the prefix's range to count before walking the sets instead. */
  rangeCap: number;
  limit: number;
  offset: number;
};

/**
 * Placeholder values, each unique, to compile a shape once: a run puts its own value wherever
 * the compiled parameters hold a placeholder (a value the builder wrote itself, like the
 * scope 'user', stays). Building and compiling these queries with Kysely costs ~0.35 ms a
 * listing otherwise, more than SQLite takes to run them.
 */
const placeholders: ListingValues = {
  projectId: '\u0000projectId',
  readerId: '\u0000readerId',
  readerRole: '\u0000readerRole',
  prefix: '\u0000prefix',
  upper: '\u0000upper',
  count: -1_000_001,
  limit: -1_000_002,
  offset: -1_000_003,
  rangeCap: -1_000_004,
};
const placeholderNames = new Map<unknown, keyof ListingValues>(
  Object.entries(placeholders).map(([name, value]) => [value, name as keyof ListingValues]),
);
const compiledByDatabase = new WeakMap<Kysely<DatabaseSchema>, Map<string, CompiledQuery>>();

/** Runs the statement `build` makes for the shape, compiled once per database and shape. */
export async function runShaped<Row>(
  db: Kysely<DatabaseSchema>,
  name: string,
  shape: ListingShape,
  values: ListingValues,
  build: (db: Kysely<DatabaseSchema>, shape: ListingShape, values: ListingValues) => Compilable<Row>,
): Promise<Row[]> {
  let compiled = compiledByDatabase.get(db);
  if (compiled === undefined) {
    compiled = new Map();
    compiledByDatabase.set(db, compiled);
  }
  const key = `${name}:${shape.isAdmin}:${shape.hasPrefix}:${shape.hasUpper}:${shape.byPath}`;
  let query = compiled.get(key);
  if (query === undefined) {
    query = build(db, shape, placeholders).compile();
    compiled.set(key, query);
  }
  const parameters = query.parameters.map((parameter) => {
    const placeholder = placeholderNames.get(parameter);
    return placeholder === undefined ? parameter : values[placeholder];
  });
  return (await db.executeQuery<Row>({ ...query, parameters })).rows;
}
