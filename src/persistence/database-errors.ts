import { networkErrorCodes } from '../errors/network-errors.ts';

/**
 * Recognizes driver errors, so that the persistence edge can turn them into AppErrors:
 * node:sqlite throws `{ errcode }` (SQLite extended result codes), pg throws `{ code }`
 * (SQLSTATE) or Node socket errors.
 */

const sqliteBusy = 5; // SQLITE_BUSY: another connection holds the lock
const sqliteLocked = 6; // SQLITE_LOCKED: a conflict inside this connection's shared cache
const sqliteFull = 13; // SQLITE_FULL: the disk (or a quota) has no room for the write
const sqliteConstraintPrimaryKey = 1555;
const sqliteConstraintUnique = 2067;

/** SQLSTATE values and classes that mean "try again later", not "your request is wrong". */
const postgresUnavailableCodes = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available
  '57014', // query_canceled (statement_timeout)
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
]);
const postgresUnavailableClasses = ['08', '53']; // connection_exception, insufficient_resources
const socketErrorCodes = networkErrorCodes;
// pg reports a dead connection or an exhausted pool with plain Errors, without a code.
const postgresUnavailableMessage =
  /connection terminated|timeout exceeded when trying to connect|not queryable|connection error/i;

type DriverError = { errcode?: unknown; code?: unknown; message?: unknown };

function asDriverError(error: unknown): DriverError {
  return typeof error === 'object' && error !== null ? (error as DriverError) : {};
}

/** A UNIQUE or PRIMARY KEY violation, on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  const { errcode, code, message } = asDriverError(error);
  if (errcode === sqliteConstraintUnique || errcode === sqliteConstraintPrimaryKey) return true;
  if (code === '23505') return true;
  return typeof message === 'string' && message.startsWith('UNIQUE constraint failed');
}

const sqliteConstraintForeignKey = 787;

/** A FOREIGN KEY violation (the row referred to is gone), on either dialect. */
export function isForeignKeyViolation(error: unknown): boolean {
  const { errcode, code, message } = asDriverError(error);
  if (errcode === sqliteConstraintForeignKey || code === '23503') return true;
  return typeof message === 'string' && message.startsWith('FOREIGN KEY constraint failed');
}

/** SQLITE_BUSY / SQLITE_LOCKED, extended codes included (SQLITE_BUSY_SNAPSHOT, …). */
export function isSqliteBusy(error: unknown): boolean {
  const { errcode, message } = asDriverError(error);
  if (typeof errcode === 'number') {
    const primary = errcode & 0xff;
    return primary === sqliteBusy || primary === sqliteLocked;
  }
  return typeof message === 'string' && /database (table )?is locked/.test(message);
}

/** SQLITE_FULL, extended codes included: the database file or its WAL cannot grow. */
export function isSqliteFull(error: unknown): boolean {
  const { errcode } = asDriverError(error);
  return typeof errcode === 'number' && (errcode & 0xff) === sqliteFull;
}

/** PostgreSQL's disk_full (53100): its server has no room for the write. */
export function isPostgresDiskFull(error: unknown): boolean {
  return asDriverError(error).code === '53100';
}

const postgresTransactionConflictCodes = new Set(['40P01', '40001']); // deadlock, serialization

/**
 * PostgreSQL chose this transaction as the victim of a deadlock or a serialization failure, and
 * rolled it back: run again from the start, it meets the other transaction's outcome. Also seen
 * through the UNAVAILABLE the pool turned it into (unavailable-translating-pool.ts).
 */
export function isTransactionConflict(error: unknown): boolean {
  const { code } = asDriverError(error);
  if (typeof code === 'string' && postgresTransactionConflictCodes.has(code)) return true;
  const cause = error instanceof Error ? error.cause : undefined;
  return cause !== undefined && cause !== error && isTransactionConflict(cause);
}

/** Contention or a lost connection on PostgreSQL: the request may succeed if retried. */
export function isPostgresUnavailable(error: unknown): boolean {
  const { code, message } = asDriverError(error);
  if (typeof code === 'string') {
    if (postgresUnavailableCodes.has(code) || socketErrorCodes.has(code)) return true;
    if (code.length === 5 && postgresUnavailableClasses.includes(code.slice(0, 2))) return true;
  }
  return typeof message === 'string' && postgresUnavailableMessage.test(message);
}
