/**
 * Every setting in one table: its type, default, environment variable, command-line flag and
 * one line of documentation. docs/config.md and the README table list the same settings
 * (test/docs/config-doc.test.ts checks it).
 */
export type SettingKind = 'string' | 'integer' | 'boolean';

export type Setting = {
  env: string;
  flag?: string;
  kind: SettingKind;
  /** A default of undefined means "derived" or "unset"; see `doc`. */
  defaultValue?: string | number | boolean;
  min?: number;
  doc: string;
};

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
    kind: 'string',
    defaultValue: '127.0.0.1',
    doc: 'Address to listen on. A non-loopback address needs TLS or --trust-proxy.',
  },
  port: {
    env: 'COFFER_PORT',
    flag: 'port',
    kind: 'integer',
    defaultValue: 8080,
    min: 0,
    doc: 'TCP port to listen on (0 picks a free port).',
  },
  publicUrl: {
    env: 'COFFER_PUBLIC_URL',
    flag: 'public-url',
    kind: 'string',
    doc: 'Base URL clients reach this service at; signed links are built on it. Default: the listen address.',
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
    doc: 'Time a client has to send the request headers.',
  },
  requestTimeoutSeconds: {
    env: 'COFFER_REQUEST_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 3600,
    min: 1,
    doc: 'Time a client has to send a whole request, body included (large uploads).',
  },
  idleTimeoutSeconds: {
    env: 'COFFER_IDLE_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 60,
    min: 1,
    doc: 'A connection silent for this long is closed.',
  },
  loginAttemptsPerMinute: {
    env: 'COFFER_LOGIN_ATTEMPTS_PER_MINUTE',
    kind: 'integer',
    defaultValue: 10,
    min: 1,
    doc: 'Failed logins allowed per email and per client address each minute (429 RATE_LIMITED beyond).',
  },
  databaseBusyTimeoutMs: {
    env: 'COFFER_DATABASE_BUSY_TIMEOUT_MS',
    kind: 'integer',
    defaultValue: 5000,
    min: 1,
    doc: 'How long a write waits for the database (SQLite lock, PostgreSQL pool) before answering 503 UNAVAILABLE.',
  },
  databaseStartTimeoutSeconds: {
    env: 'COFFER_DATABASE_START_TIMEOUT_SECONDS',
    kind: 'integer',
    defaultValue: 60,
    min: 0,
    doc: '`serve` keeps retrying an unreachable database this long at start, logging each attempt, before giving up.',
  },
  uploadMode: {
    env: 'COFFER_UPLOAD_MODE',
    kind: 'string',
    defaultValue: 'gateway',
    doc: '`gateway`: uploads stream through Coffer (multipart form or raw body). `direct` (S3 only): putFileUrl is an S3 presigned PUT for raw bodies.',
  },
  databasePoolMax: {
    env: 'COFFER_DATABASE_POOL_MAX',
    kind: 'integer',
    defaultValue: 10,
    min: 1,
    doc: 'PostgreSQL connections per process.',
  },
  logLevel: {
    env: 'COFFER_LOG_LEVEL',
    flag: 'log-level',
    kind: 'string',
    defaultValue: 'info',
    doc: 'pino log level: fatal, error, warn, info, debug, trace or silent.',
  },
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof settings;
