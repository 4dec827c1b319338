import { maxTimerMs, maxTimerSeconds, type Setting } from '../setting.ts';

/** How long a write and `serve`'s start wait for the database. */
export const databaseTimeoutSettings = {
  databaseBusyTimeoutMs: {
    env: 'COFFER_DATABASE_BUSY_TIMEOUT_MS',
    kind: 'integer',
    defaultValue: 5000,
    min: 1,
    max: maxTimerMs,
    doc: 'How long a write waits for the database (SQLite lock, PostgreSQL pool) before answering 503 UNAVAILABLE.',
  },
  databaseStartTimeoutSeconds: {
    env: 'COFFER_DATABASE_START_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 60,
    min: 0,
    max: maxTimerSeconds,
    doc: '`serve` keeps retrying an unreachable database this long at start, logging each attempt, before giving up.',
  },
} as const satisfies Record<string, Setting>;
