import type { Setting } from '../setting.ts';

/** Where the data lives: the embedded data directory, the metadata store and the blob store. */
export const storeSettings = {
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
} as const satisfies Record<string, Setting>;
