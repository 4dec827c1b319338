/**
 * The one place that picks implementations (SQLite or PostgreSQL, disk or S3) from the
 * configuration and wires the domain services together.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { FsBlobStore } from './blob-stores/fs-blob-store.ts';
import { MemoryBlobStore } from './blob-stores/memory-blob-store.ts';
import type { Config } from './config/config.ts';
import { type Clock, systemClock } from './domain/clock.ts';
import { FileService } from './domain/files/file-service.ts';
import { IdentityService } from './domain/identity/identity-service.ts';
import { LoginRateLimiter } from './domain/identity/login-rate-limiter.ts';
import { TokenService } from './domain/identity/token-service.ts';
import { LinkIssuer } from './domain/links/link-issuer.ts';
import { type HmacKey, LinkSigner } from './domain/links/link-signer.ts';
import type { BlobStore, SigningKey, SigningKeyRepository } from './domain/ports.ts';
import { migrateToLatest } from './persistence/migrations/migrate-to-latest.ts';
import { type Database, openDatabase } from './persistence/open-database.ts';
import { createRepositories, type Repositories } from './persistence/repositories/create-repositories.ts';

export type Services = {
  config: Config;
  clock: Clock;
  database: Database;
  repositories: Repositories;
  blobs: BlobStore;
  identity: IdentityService;
  files: FileService;
  loginLimiter: LoginRateLimiter;
  /** The base URL links are built on; set once the server knows its address. */
  publicUrl: { value: string };
  close(): Promise<void>;
};

/** Opens the stores (migrating the database), loads the signing keys and builds the services. */
export async function buildServices(config: Config, options: { clock?: Clock } = {}): Promise<Services> {
  const clock = options.clock ?? systemClock;
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    poolMax: config.databasePoolMax,
    busyTimeoutMs: config.databaseBusyTimeoutMs,
  });
  try {
    await migrateToLatest(database.db);
    const repositories = createRepositories(database.db);
    const blobs = openBlobStore(config.storageUrl);
    const publicUrl = { value: config.publicUrl ?? `http://${config.host}:${config.port}` };
    const links = new LinkIssuer({
      signer: new LinkSigner(await loadKeys(repositories.signingKeys, 'link')),
      blobs,
      baseUrl: () => publicUrl.value,
    });
    const tokens = new TokenService({
      keys: await loadKeys(repositories.signingKeys, 'token'),
      ttlSeconds: config.tokenTtlSeconds,
    });
    return {
      config,
      clock,
      database,
      repositories,
      blobs,
      identity: new IdentityService({
        projects: repositories.projects,
        users: repositories.users,
        tokens,
        clock,
      }),
      files: new FileService({
        files: repositories.files,
        blobs,
        links,
        clock,
        uploadLinkTtlSeconds: config.uploadLinkTtlSeconds,
        maxFileSizeBytes: config.maxFileSizeBytes,
      }),
      loginLimiter: new LoginRateLimiter(config.loginAttemptsPerMinute),
      publicUrl,
      close: () => database.close(),
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Only the stores, for admin commands that need no keys or links. */
export async function openStores(
  config: Config,
): Promise<{ database: Database; repositories: Repositories }> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    poolMax: 2,
    busyTimeoutMs: config.databaseBusyTimeoutMs,
  });
  await migrateToLatest(database.db);
  return { database, repositories: createRepositories(database.db) };
}

function openBlobStore(storageUrl: string): BlobStore {
  // memory: keeps blobs in this process only: tests and benchmarks, never production.
  if (storageUrl === 'memory:') return new MemoryBlobStore();
  if (storageUrl.startsWith('file:'))
    return new FsBlobStore({ rootDir: path.resolve(storageUrl.slice('file:'.length)) });
  throw new Error(
    `COFFER_STORAGE_URL: unsupported store ${JSON.stringify(storageUrl.split(':')[0])} (use file: or s3:)`,
  );
}

/**
 * The HMAC keys of a purpose, newest first. The first start creates one under a fixed id, so
 * nodes starting together agree on it (the loser's insert fails and it reads the winner's).
 */
async function loadKeys(keys: SigningKeyRepository, purpose: SigningKey['purpose']): Promise<HmacKey[]> {
  let found = await keys.list(purpose);
  if (found.length === 0) {
    try {
      await keys.create({ id: `${purpose}1`, purpose, secret: randomBytes(32), createdAt: new Date() });
    } catch {
      // another node created it first
    }
    found = await keys.list(purpose);
  }
  return found.map((key) => ({ id: key.id, secret: key.secret }));
}
