import type { Setting } from '../setting.ts';

/** Logs and metrics. */
export const observabilitySettings = {
  logLevel: {
    env: 'COFFER_LOG_LEVEL',
    flag: 'log-level',
    kind: 'string',
    defaultValue: 'info',
    choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    doc: 'pino log level: fatal, error, warn, info, debug, trace or silent.',
  },
  logFormat: {
    env: 'COFFER_LOG_FORMAT',
    kind: 'string',
    defaultValue: 'auto',
    choices: ['auto', 'json', 'pretty'],
    doc: '`auto`: readable lines when stdout is a terminal, JSON lines otherwise; or always `json` or `pretty`.',
  },
  metricsToken: {
    env: 'COFFER_METRICS_TOKEN',
    kind: 'string',
    secret: true,
    doc: '`GET /metrics` asks for `Authorization: Bearer <this>`; unset, only clients on this machine connecting directly (no proxy) may scrape.',
  },
} as const satisfies Record<string, Setting>;
