import PinoPretty, { prettyFactory } from 'pino-pretty';

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
  return PinoPretty({ ...prettyOptions, sync: true });
}

/** Formats one pino-shaped record (the primary's own lines) as pino-pretty would. */
export const formatPrettyLine: (record: Record<string, unknown>) => string = prettyFactory({
  ...prettyOptions,
  colorize: process.stdout.isTTY === true,
});
