export type SettingKind =
  | 'string'
  | 'integer'
  | 'boolean'
  /** An absolute http(s) base URL without query or fragment (stored without a trailing slash). */
  | 'base-url'
  /** An IP address or a DNS host name. */
  | 'host'
  /** Which proxies' X-Forwarded-* headers count (trusted-proxies.ts); a bare flag is one hop. */
  | 'proxies';

/** One setting: its type, default, environment variable, command-line flag and one line of documentation. */
export type Setting = {
  env: string;
  flag?: string;
  kind: SettingKind;
  /** A default of undefined means "derived" or "unset"; see `doc`. */
  defaultValue?: string | number | boolean;
  /** Bounds of an integer (inclusive). */
  min?: number;
  max?: number;
  /** The only values a string setting takes. */
  choices?: readonly string[];
  /** Never repeat the value in a message: it may hold a password. */
  secret?: boolean;
  doc: string;
};

/** The longest delay Node's timers hold (2^31 − 1 ms); a longer one would fire at once. */
export const maxTimerMs = 2 ** 31 - 1;
export const maxTimerSeconds = Math.floor(maxTimerMs / 1000);
