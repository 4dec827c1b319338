import type { Setting } from '../setting.ts';

/** PostgreSQL connections: the pool size and prepared statements. */
export const postgresSettings = {
  databasePoolMax: {
    env: 'COFFER_DATABASE_POOL_MAX',
    kind: 'integer',
    defaultValue: 10,
    min: 1,
    doc: 'PostgreSQL connections per process.',
  },
  databasePreparedStatements: {
    env: 'COFFER_DATABASE_PREPARED_STATEMENTS',
    kind: 'boolean',
    defaultValue: true,
    doc: 'PostgreSQL: run recurring statements as named prepared statements (parsed once per connection). Set false behind a pooler in transaction mode without prepared-statement support (PgBouncer before 1.21).',
  },
} as const satisfies Record<string, Setting>;
