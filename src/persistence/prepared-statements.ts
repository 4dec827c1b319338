import { createHash } from 'node:crypto';

/**
 * Which PostgreSQL statements run as named prepared statements. A named statement is parsed
 * and planned once per connection; later runs send only its parameters. On the hot path
 * (`GET /api/v1/file/:id`, one query) that halved the query's round trip on this project's
 * two-core machine (271 → 130 µs; docs/benchmarks.md).
 *
 * Kysely passes no statement names, so the SQL text picks one: a text that has run
 * `recurringAfter` times in this process is worth preparing (one-off shapes, such as an
 * `in (…)` list of an unusual length, are not). A connection prepares at most
 * `maxPerConnection` statements, so a long-lived connection holds a bounded set on the server.
 */
export const preparedStatementLimits = { recurringAfter: 3, maxPerConnection: 100, trackedTexts: 1_000 };

/**
 * Counts how often each SQL text ran, for the whole process, and keeps the name of each text
 * that recurs: naming is a SHA-256 of the text, which every run of the statement needed before
 * (~4 % of an upload request's CPU on PostgreSQL, issue 44 item 5).
 */
export class RecurringStatements {
  /** Runs so far of a text not yet recurring, or the name of one that is. */
  readonly #runs = new Map<string, number | string>();

  /** Counts one run of `text`; its statement name once it has run often enough to be prepared. */
  recurringName(text: string): string | undefined {
    const seen = this.#runs.get(text);
    if (typeof seen === 'string') return seen;
    const runs = (seen ?? 0) + 1;
    // A bounded count: a flood of distinct texts starts the tally again rather than growing it.
    if (this.#runs.size >= preparedStatementLimits.trackedTexts) this.#runs.clear();
    const name = runs >= preparedStatementLimits.recurringAfter ? statementName(text) : undefined;
    this.#runs.set(text, name ?? runs);
    return name;
  }
}

/** The statements one connection has prepared (pg keeps them per connection, by name). */
export class ConnectionStatements {
  readonly #names = new Set<string>();

  /** The name `text` runs under on this connection, or undefined to run it unnamed. */
  nameFor(text: string, recurring: RecurringStatements): string | undefined {
    const name = recurring.recurringName(text);
    if (name === undefined || this.#names.has(name)) return name;
    if (this.#names.size >= preparedStatementLimits.maxPerConnection) return undefined;
    this.#names.add(name);
    return name;
  }
}

/**
 * One name per text (on every connection alike). pg refuses a known name with another text,
 * so the name is a digest of the text: 120 bits make a collision out of reach.
 */
function statementName(text: string): string {
  return `coffer_${createHash('sha256').update(text).digest('base64url').slice(0, 20)}`;
}

/**
 * Errors after which a connection's prepared statements cannot be trusted: the server lost
 * them (26000: a pooler in transaction mode handed the session to another client, or a
 * DEALLOCATE), or a table changed under a cached plan (0A000: a migration by a newer node).
 * Such a connection is closed rather than returned to the pool.
 */
export function losesPreparedStatements(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '26000' || code === '0A000';
}
