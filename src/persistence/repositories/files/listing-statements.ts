import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../database-schema.ts';
import { inPathRange } from './path-prefix.ts';
import type { ListingShape, ListingValues } from './run-shaped.ts';
import { visibleKeys } from './visible-keys.ts';

/** The page's rows, each with how many keys the union held (capped per set at `count`). */
export function selectPage(db: Kysely<DatabaseSchema>, shape: ListingShape, values: ListingValues) {
  const page = db
    .selectFrom(visibleKeys(db, shape, values).as('visible'))
    .select((eb) => ['visible.id', 'visible.created_at', eb.fn.countAll<number | string>().over().as('seen')])
    .orderBy('visible.created_at', 'desc')
    .orderBy('visible.id', 'desc')
    .limit(values.limit)
    .offset(values.offset);
  // One statement for the page's keys and rows: one snapshot, so every row is one the reader could list.
  return db
    .selectFrom(page.as('page'))
    .innerJoin('files', 'files.id', 'page.id')
    .selectAll('files')
    .select('page.seen')
    .orderBy('page.created_at', 'desc')
    .orderBy('page.id', 'desc');
}

/** How many keys the union holds (capped per set at `count`): the total of a page past the end. */
export function countVisible(db: Kysely<DatabaseSchema>, shape: ListingShape, values: ListingValues) {
  return db
    .selectFrom(visibleKeys(db, shape, values).as('visible'))
    .select((eb) => eb.fn.countAll<number | string>().as('seen'));
}

/** How many files of the project hold the prefix, counted up to `rangeCap` on the path index. */
export function countPathRange(db: Kysely<DatabaseSchema>, _shape: ListingShape, values: ListingValues) {
  const range = db
    .selectFrom('files')
    .select('files.id')
    .where('files.project_id', '=', values.projectId)
    .where(inPathRange(values.prefix, values.upper, 'binary'))
    .limit(values.rangeCap);
  return db.selectFrom(range.as('range')).select((eb) => eb.fn.countAll<number>().as('held'));
}
