import { createRequire } from 'node:module';

// pino-pretty (30 modules) is loaded only by a process that logs for people: a server logging
// JSON lines, every test server and most commands never need it. Required, not imported, so
// that the loggers built on it stay synchronous.
const require = createRequire(import.meta.url);
const loadPinoPretty = (): typeof import('pino-pretty') => require('pino-pretty');

export type LogFormat = 'auto' | 'json' | 'pretty';

/** `auto`: lines for people when stdout is a terminal, JSON lines (for collectors) otherwise. */
export function isPrettyLog(format: string, stdout: { isTTY?: boolean } = process.stdout): boolean {
  return format === 'pretty' || (format === 'auto' && stdout.isTTY === true);
}

const prettyOptions = {
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,reqId',
  singleLine: true,
} as const;

/** The workers' logger stream in pretty mode (pino-pretty, written synchronously: nothing lost at exit). */
export function prettyLogStream() {
  return loadPinoPretty()({ ...prettyOptions, sync: true });
}

let prettyLine: ((record: Record<string, unknown>) => string) | undefined;

/** Formats one pino-shaped record (the primary's own lines) as pino-pretty would. */
export function formatPrettyLine(record: Record<string, unknown>): string {
  prettyLine ??= loadPinoPretty().prettyFactory({
    ...prettyOptions,
    colorize: process.stdout.isTTY === true,
  });
  return prettyLine(record);
}
