import { formatPrettyLine } from '../config/log-format.ts';

const levels = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

export type PrimaryLog = (
  level: 'info' | 'warn' | 'error',
  message: string,
  fields?: Record<string, unknown>,
) => void;

/**
 * The primary's log: JSON lines shaped like the workers' (pino's); info on stdout beside the
 * workers' lines, warnings and errors on stderr (as the workers' start-up warnings).
 */
export function toPrimaryLog(logLevel: string, pretty = false): PrimaryLog {
  const threshold =
    logLevel === 'silent'
      ? Number.POSITIVE_INFINITY
      : (levels[logLevel as keyof typeof levels] ?? levels.info);
  return (level, message, fields = {}) => {
    if (levels[level] < threshold) return;
    const line = { level: levels[level], time: Date.now(), pid: process.pid, ...fields, msg: message };
    const text = pretty ? formatPrettyLine(line) : `${JSON.stringify(line)}\n`;
    (levels[level] >= levels.warn ? process.stderr : process.stdout).write(text);
  };
}
