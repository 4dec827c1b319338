/**
 * Every setting in one table: its type, default, environment variable, command-line flag and
 * one line of documentation. docs/config.md and the README table list the same settings
 * (test/docs/config-doc.test.ts checks it).
 */
export type SettingKind =
  | 'string'
  | 'integer'
  | 'boolean'
  /** An absolute http(s) base URL without query or fragment (stored without a trailing slash). */
  | 'base-url'
  /** An IP address or a DNS host name. */
  | 'host';

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
const maxTimerMs = 2 ** 31 - 1;
const maxTimerSeconds = Math.floor(maxTimerMs / 1000);

export const settings = {
  dataDir: {
    env: 'COFFER_DATA_DIR',
    flag: 'data-dir',
    kind: 'string',
    defaultValue: './data',
    doc: 'Directory for the embedded database, blobs and the default project credentials.',
  },
  databaseUrl: {
    env: 'COFFER_DATABASE_URL',
    flag: 'database-url',
    kind: 'string',
    secret: true,
    doc: 'Metadata store: `sqlite:<path>` (default `sqlite:<data-dir>/coffer.db`) or `postgres://…`.',
  },
  storageUrl: {
    env: 'COFFER_STORAGE_URL',
    flag: 'storage-url',
    kind: 'string',
    doc: 'Blob store: `file:<dir>` (default `file:<data-dir>/blobs`) or `s3://bucket?endpoint=…&region=…&forcePathStyle=true`.',
  },
  host: {
    env: 'COFFER_HOST',
    flag: 'host',
    kind: 'host',
    defaultValue: '127.0.0.1',
    doc: 'Address to listen on. A non-loopback address needs TLS or --trust-proxy.',
  },
  port: {
    env: 'COFFER_PORT',
    flag: 'port',
    kind: 'integer',
    defaultValue: 8080,
    min: 0,
    max: 65535,
    doc: 'TCP port to listen on (0 picks a free port).',
  },
  publicUrl: {
    env: 'COFFER_PUBLIC_URL',
    flag: 'public-url',
    kind: 'base-url',
    doc: 'Base URL clients reach this service at (`https://host[:port][/path]`); signed links are built on it. Default: the listen address; set it whenever clients reach Coffer by another name (a proxy, a non-loopback bind).',
  },
  tlsCert: {
    env: 'COFFER_TLS_CERT',
    flag: 'tls-cert',
    kind: 'string',
    doc: 'PEM certificate file: serve HTTPS directly.',
  },
  tlsKey: {
    env: 'COFFER_TLS_KEY',
    flag: 'tls-key',
    kind: 'string',
    doc: 'PEM private key file for --tls-cert.',
  },
  trustProxy: {
    env: 'COFFER_TRUST_PROXY',
    flag: 'trust-proxy',
    kind: 'boolean',
    defaultValue: false,
    doc: 'Behind a TLS proxy: require `X-Forwarded-Proto: https` and take the client address from X-Forwarded-For.',
  },
  workers: {
    env: 'COFFER_WORKERS',
    flag: 'workers',
    kind: 'integer',
    defaultValue: 1,
    min: 1,
    doc: 'Number of server processes under the supervising primary, which hands them connections and replaces any that dies.',
  },
  maxFileSizeBytes: {
    env: 'COFFER_MAX_FILE_SIZE_BYTES',
    kind: 'integer',
    defaultValue: 5 * 1024 ** 3,
    min: 1,
    doc: 'Largest file an upload may carry; enforced while streaming (413 FILE_TOO_LARGE).',
  },
  uploadLinkTtlSeconds: {
    env: 'COFFER_UPLOAD_LINK_TTL_SECONDS',
    kind: 'integer',
    defaultValue: 3600,
    min: 1,
    doc: 'How long an upload link (putFileUrl) stays valid.',
  },
  maxLinkTtlSeconds: {
    env: 'COFFER_MAX_LINK_TTL_SECONDS',
    kind: 'integer',
    defaultValue: 604800,
    min: 1,
    doc: 'Upper bound of expiresInSeconds for download links (at most 604800, 7 days).',
  },
  tokenTtlSeconds: {
    env: 'COFFER_TOKEN_TTL_SECONDS',
    kind: 'integer',
    defaultValue: 3600,
    min: 60,
    doc: 'Lifetime of access tokens issued by login and signup.',
  },
  refreshTokenTtlSeconds: {
    env: 'COFFER_REFRESH_TOKEN_TTL_SECONDS',
    kind: 'integer',
    defaultValue: 2592000,
    min: 60,
    doc: 'Lifetime of a refresh token (30 days by default); each refresh answers a new one with a new lifetime.',
  },
  refreshTokenReuseGraceSeconds: {
    env: 'COFFER_REFRESH_TOKEN_REUSE_GRACE_SECONDS',
    kind: 'integer',
    defaultValue: 20,
    min: 0,
    max: 300,
    doc: 'How long a rotated refresh token may still be refreshed (a client retrying after a lost answer); reuse after that revokes its whole family.',
  },
  jsonBodyLimitBytes: {
    env: 'COFFER_JSON_BODY_LIMIT_BYTES',
    kind: 'integer',
    defaultValue: 65536,
    min: 1024,
    doc: 'Largest JSON request body on the control plane (413 BODY_TOO_LARGE).',
  },
  headersTimeoutSeconds: {
    env: 'COFFER_HEADERS_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 30,
    min: 1,
    max: maxTimerSeconds,
    doc: 'Time a client has to send the request headers.',
  },
  requestTimeoutSeconds: {
    env: 'COFFER_REQUEST_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 3600,
    min: 1,
    max: maxTimerSeconds,
    doc: 'Time a client has to send a whole upload (a PUT to an upload link), body included.',
  },
  bodyTimeoutSeconds: {
    env: 'COFFER_BODY_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 30,
    min: 1,
    max: maxTimerSeconds,
    doc: 'Time a client has to send any other request body (JSON on /api/v1) once its headers are in (408 REQUEST_TIMEOUT).',
  },
  idleTimeoutSeconds: {
    env: 'COFFER_IDLE_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 60,
    min: 1,
    max: maxTimerSeconds,
    doc: 'A connection silent for this long is closed.',
  },
  loginFailuresPerAccountAddressPerHour: {
    env: 'COFFER_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS_PER_HOUR',
    kind: 'integer',
    defaultValue: 10,
    min: 1,
    doc: 'Failed logins one client address may make on one account: this many at once, then the allowance refills over an hour (429 RATE_LIMITED beyond).',
  },
  loginFailuresPerAccountPerHour: {
    env: 'COFFER_LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR',
    kind: 'integer',
    defaultValue: 30,
    min: 1,
    doc: 'Failed logins on one account from all addresses together, refilling over an hour; keep it above twice the per account and address value, so that one or two addresses cannot lock the owner out.',
  },
  loginFailuresPerAddressPerHour: {
    env: 'COFFER_LOGIN_FAILURES_PER_ADDRESS_PER_HOUR',
    kind: 'integer',
    defaultValue: 600,
    min: 1,
    doc: 'Failed logins one client address may make on all accounts together, refilling over an hour.',
  },
  signupsPerAddressPerHour: {
    env: 'COFFER_SIGNUPS_PER_ADDRESS_PER_HOUR',
    kind: 'integer',
    defaultValue: 100,
    min: 1,
    doc: 'Signup attempts one client address may make, refilling over an hour (429 RATE_LIMITED beyond).',
  },
  signupsPerAppPerHour: {
    env: 'COFFER_SIGNUPS_PER_APP_PER_HOUR',
    kind: 'integer',
    defaultValue: 1000,
    min: 1,
    doc: 'Signup attempts one app (project) may receive from all addresses together, refilling over an hour.',
  },
  emailSharesPerUserPerHour: {
    env: 'COFFER_EMAIL_SHARES_PER_USER_PER_HOUR',
    kind: 'integer',
    defaultValue: 300,
    min: 1,
    doc: 'Shares by email one user (not an admin) may ask for, refilling over an hour: each tells whether the address has an account.',
  },
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
  uploadMode: {
    env: 'COFFER_UPLOAD_MODE',
    kind: 'string',
    defaultValue: 'gateway',
    choices: ['gateway', 'direct'],
    doc: '`gateway`: uploads stream through Coffer (multipart form or raw body). `direct` (S3 only): putFileUrl is an S3 presigned PUT for raw bodies.',
  },
  gcIntervalSeconds: {
    env: 'COFFER_GC_INTERVAL_SECONDS',
    kind: 'integer',
    defaultValue: 3600,
    min: 0,
    doc: '`serve` looks for stray blobs (what `coffer gc --apply` removes) at start and then this often; 0 turns it off.',
  },
  gcGraceSeconds: {
    env: 'COFFER_GC_GRACE_SECONDS',
    kind: 'integer',
    min: 1,
    doc: 'Age before an unreferenced blob version or an incomplete multipart upload counts as stray; more than the request timeout (default: request timeout + 3600).',
  },
  unverifiedGraceSeconds: {
    env: 'COFFER_UNVERIFIED_GRACE_SECONDS',
    kind: 'integer',
    defaultValue: 86400,
    min: 0,
    max: maxTimerSeconds,
    doc: 'How long after its upload link expired a never-verified file record (and its bytes) is kept before `serve` removes it.',
  },
  unverifiedSweepIntervalSeconds: {
    env: 'COFFER_UNVERIFIED_SWEEP_INTERVAL_SECONDS',
    kind: 'integer',
    defaultValue: 600,
    min: 0,
    max: maxTimerSeconds,
    doc: '`serve` removes expired never-verified file records at start and then this often; 0 turns it off.',
  },
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

export type SettingName = keyof typeof settings;
