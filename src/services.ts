/**
 * The one place that picks implementations (SQLite or PostgreSQL, disk or S3) from the
 * configuration and wires the domain services together.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { FsBlobStore } from './blob-stores/fs-blob-store.ts';
import { MemoryBlobStore } from './blob-stores/memory-blob-store.ts';
import { parseS3StorageUrl, S3BlobStore } from './blob-stores/s3-blob-store.ts';
import type { Config } from './config/config.ts';
import { type Clock, systemClock } from './domain/clock.ts';
import { BlobCollector } from './domain/files/blob-collector.ts';
import { FileOrganizer } from './domain/files/file-organizer.ts';
import { FileService } from './domain/files/file-service.ts';
import { HashThread } from './domain/files/hash-thread.ts';
import { UnverifiedSweeper } from './domain/files/unverified-sweeper.ts';
import { UploadLimits } from './domain/files/upload-limits.ts';
import { AccessEpochWatch, accessEpochCheckIntervalMs } from './domain/identity/access-epoch-watch.ts';
import { CachedUserRepository } from './domain/identity/cached-user-repository.ts';
import type { DeleteAccountOptions } from './domain/identity/delete-account.ts';
import { EpochCache } from './domain/identity/epoch-cache.ts';
import { IdentityService } from './domain/identity/identity-service.ts';
import { LoginThrottle } from './domain/identity/login-throttle.ts';
import { defaultProjectSettings, type ProjectSettings } from './domain/identity/project-settings.ts';
import { RefreshTokenService } from './domain/identity/refresh-token-service.ts';
import { SignupThrottle } from './domain/identity/signup-throttle.ts';
import { TokenService } from './domain/identity/token-service.ts';
import { toKeyLifetimes } from './domain/keys/key-lifetimes.ts';
import { SigningKeyRing } from './domain/keys/signing-key-ring.ts';
import { type HmacKey, LinkSigner } from './domain/links/link-signer.ts';
import { OperatorService } from './domain/operators/operator-service.ts';
import type {
  BlobStore,
  BlobSweeper,
  FileRepository,
  Project,
  SigningKey,
  SigningKeyRepository,
} from './domain/ports.ts';
import { TokenBuckets, toBucketRule } from './domain/rate-limits/token-buckets.ts';
import { CountingLinkIssuer } from './metrics/counting-link-issuer.ts';
import { ServiceMetrics } from './metrics/service-metrics.ts';
import { UsageHistory } from './metrics/usage-history.ts';
import { migrateToLatest } from './persistence/migrations/migrate-to-latest.ts';
import { type Database, openDatabase } from './persistence/open-database.ts';
import { createRepositories, type Repositories } from './persistence/repositories/create-repositories.ts';

export type Services = {
  config: Config;
  clock: Clock;
  database: Database;
  repositories: Repositories;
  blobs: BlobStore & BlobSweeper;
  identity: IdentityService;
  /** The console's operators and their sessions. */
  operators: OperatorService;
  files: FileService;
  /** Copy, move and bulk delete. */
  organizer: FileOrganizer;
  /** Finds and removes stray blobs (coffer gc; periodically in serve). */
  collector: BlobCollector;
  /** Removes expired never-verified records and their bytes (periodically in serve). */
  unverifiedSweeper: UnverifiedSweeper;
  /** Prometheus instruments (GET /metrics). */
  metrics: ServiceMetrics;
  /** Samples of the traffic counters over the last day (the console's usage page). */
  usageHistory: UsageHistory;
  /** The base URL links are built on; set once the server knows its address. */
  publicUrl: { value: string };
  close(): Promise<void>;
};

export type BuildOptions = {
  clock?: Clock;
  /** Where start-up progress goes (database retries); silent by default. */
  log?: (line: string) => void;
  /** A worker of `serve`: /metrics answers for every worker of the node (gathered by the primary). */
  metricsFromPrimary?: boolean;
};

/** Opens the stores (migrating the database), loads the signing keys and builds the services. */
export async function buildServices(config: Config, options: BuildOptions = {}): Promise<Services> {
  const clock = options.clock ?? systemClock;
  const stores = await openStores(config, options.log);
  const { database } = stores;
  // Every authenticated request reads its project and user: both are cached, and a change
  // made anywhere is seen within the access epoch's interval (docs/decisions.md).
  const accessEpoch = new AccessEpochWatch(stores.repositories.accessEpoch);
  const repositories: Repositories = {
    ...stores.repositories,
    users: new CachedUserRepository(stores.repositories.users, accessEpoch),
  };
  // One hashing thread for the process: uploads' SHA-256 and the local store's MD5 ETags.
  const hashes = new HashThread();
  const blobs = openBlobStore(config.storageUrl, hashes);
  try {
    if (config.uploadMode === 'direct' && !blobs.presignUpload) {
      throw new Error('COFFER_UPLOAD_MODE=direct needs an S3 storage URL');
    }
    const publicUrl = { value: config.publicUrl ?? `http://${config.host}:${config.port}` };
    const metrics = new ServiceMetrics({
      poolStats: database.poolStats,
      fromPrimary: options.metricsFromPrimary ?? false,
    });
    const keyRing = <Signer>(
      purpose: SigningKey['purpose'],
      initial: SigningKey[],
      build: (keys: HmacKey[]) => Signer,
    ) =>
      new SigningKeyRing({
        purpose,
        repository: repositories.signingKeys,
        accessEpoch,
        clock,
        lifetime: toKeyLifetimes(config)[purpose],
        build,
        initial,
      });
    const links = new CountingLinkIssuer(
      {
        signer: keyRing(
          'link',
          await loadKeys(repositories.signingKeys, 'link'),
          (keys) => new LinkSigner(keys),
        ),
        blobs,
        baseUrl: () => publicUrl.value,
        directUploads: config.uploadMode === 'direct',
      },
      metrics,
    );
    const uploadLimits = new UploadLimits({
      settingsOf: projectSettingsReader(repositories, accessEpoch),
      usage: repositories.storageUsage,
      serverMaxFileSizeBytes: config.maxFileSizeBytes,
    });
    const fileService = new FileService({
      files: repositories.files,
      users: repositories.users,
      emailShares: {
        buckets: new TokenBuckets(repositories.rateLimits),
        perUser: toBucketRule(config.emailSharesPerUserPerHour),
      },
      blobs,
      links,
      clock,
      uploadLinkTtlSeconds: config.uploadLinkTtlSeconds,
      maxFileSizeBytes: config.maxFileSizeBytes,
      directUploads: config.uploadMode === 'direct',
      hashes,
      limits: uploadLimits,
      events: {
        uploadCommitted: (sizeBytes) => metrics.uploaded(sizeBytes),
        uploadVerified: () => metrics.verified(),
      },
    });
    const tokens = keyRing(
      'token',
      await loadKeys(repositories.signingKeys, 'token'),
      (keys) => new TokenService({ keys, ttlSeconds: config.tokenTtlSeconds }),
    );
    const throttles = buildThrottles(config, repositories, clock);
    const usageHistory = new UsageHistory({ exposition: metrics.exposition });
    return {
      config,
      clock,
      database,
      repositories,
      blobs,
      operators: new OperatorService({
        operators: repositories.operators,
        throttle: throttles.loginThrottle,
        clock,
      }),
      identity: new IdentityService({
        projects: repositories.projects,
        appCredentials: repositories.appCredentials,
        users: repositories.users,
        tokens,
        refreshTokens: new RefreshTokenService({
          repository: repositories.refreshTokens,
          clock,
          ttlSeconds: config.refreshTokenTtlSeconds,
          reuseGraceSeconds: config.refreshTokenReuseGraceSeconds,
        }),
        clock,
        accessEpoch,
        ...throttles,
      }),
      files: fileService,
      organizer: new FileOrganizer({
        files: repositories.files,
        blobs,
        clock,
        fileService,
        limits: uploadLimits,
      }),
      collector: createBlobCollector(config, { files: repositories.files, blobs, clock }),
      unverifiedSweeper: new UnverifiedSweeper({
        files: repositories.files,
        blobs,
        clock,
        graceSeconds: config.unverifiedGraceSeconds,
        batchSize: 100,
      }),
      metrics,
      usageHistory,
      publicUrl,
      close: async () => {
        usageHistory.stop();
        await database.close();
        if ('close' in blobs && typeof blobs.close === 'function') await blobs.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/**
 * What deleting an account needs (delete-account.ts), for `coffer user delete` and the console:
 * after the disable, the wait lets every process re-read the access epoch, so none serves the
 * account while its files go.
 */
export function accountDeletion(services: Services): DeleteAccountOptions {
  const { repositories } = services;
  return {
    users: repositories.users,
    refreshTokens: repositories.refreshTokens,
    files: repositories.files,
    fileService: services.files,
    settle: () => sleep(accessEpochCheckIntervalMs * 4),
  };
}

/** Project settings by project id, cached until a project changes (the access epoch). */
function projectSettingsReader(repositories: Repositories, accessEpoch: AccessEpochWatch) {
  const projects = new EpochCache<Project>(accessEpoch);
  return async (projectId: string): Promise<ProjectSettings> => {
    const project = await projects.get(projectId, () => repositories.projects.findById(projectId));
    return project?.settings ?? defaultProjectSettings;
  };
}

/** Login and signup limits, counted in the metadata store so that every process shares them. */
function buildThrottles(config: Config, repositories: Repositories, clock: Clock) {
  const buckets = new TokenBuckets(repositories.rateLimits);
  return {
    loginThrottle: new LoginThrottle({
      buckets,
      clock,
      limits: {
        perAccountAddress: toBucketRule(config.loginFailuresPerAccountAddressPerHour),
        perAccount: toBucketRule(config.loginFailuresPerAccountPerHour),
        perAddress: toBucketRule(config.loginFailuresPerAddressPerHour),
      },
    }),
    signupThrottle: new SignupThrottle({
      buckets,
      clock,
      limits: {
        perAddress: toBucketRule(config.signupsPerAddressPerHour),
        perApp: toBucketRule(config.signupsPerAppPerHour),
      },
    }),
  };
}

/**
 * Opens and migrates the database. An unreachable database (a PostgreSQL still starting, a
 * network blip) is retried with a log line per attempt until databaseStartTimeoutSeconds.
 */
export async function openStores(
  config: Config,
  log: (line: string) => void = () => {},
): Promise<{ database: Database; repositories: Repositories }> {
  const deadline = Date.now() + config.databaseStartTimeoutSeconds * 1000;
  for (let attempt = 1; ; attempt++) {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      poolMax: config.databasePoolMax,
      preparedStatements: config.databasePreparedStatements,
      busyTimeoutMs: config.databaseBusyTimeoutMs,
    });
    try {
      await migrateToLatest(database.db);
      return { database, repositories: createRepositories(database.db) };
    } catch (error) {
      await database.close().catch(() => {});
      const waitMs = Math.min(5000, 500 * attempt);
      if (Date.now() + waitMs > deadline) throw error;
      log(
        `database not reachable yet (attempt ${attempt}: ${(error as Error).message}); retrying in ${waitMs} ms`,
      );
      await sleep(waitMs);
    }
  }
}

/** The blob collector over the configured stores (serve and `coffer gc` share it). */
export function createBlobCollector(
  config: Config,
  stores: { files: FileRepository; blobs: BlobStore & BlobSweeper; clock?: Clock },
): BlobCollector {
  const { files, blobs, clock = systemClock } = stores;
  return new BlobCollector({ files, blobs, sweeper: blobs, clock, graceSeconds: config.gcGraceSeconds });
}

export function openBlobStore(storageUrl: string, hashes?: HashThread): BlobStore & BlobSweeper {
  // memory: keeps blobs in this process only: tests and benchmarks, never production.
  if (storageUrl === 'memory:') return new MemoryBlobStore();
  if (storageUrl.startsWith('file:'))
    return new FsBlobStore({ rootDir: path.resolve(storageUrl.slice('file:'.length)), hashes });
  if (storageUrl.startsWith('s3:')) return new S3BlobStore(parseS3StorageUrl(storageUrl));
  throw new Error(
    `COFFER_STORAGE_URL: unsupported store ${JSON.stringify(storageUrl.split(':')[0])} (use file: or s3:)`,
  );
}

/**
 * The HMAC keys of a purpose, newest first. The first start creates one under a fixed id, so
 * nodes starting together agree on it (the loser's insert fails and it reads the winner's).
 */
async function loadKeys(keys: SigningKeyRepository, purpose: SigningKey['purpose']): Promise<SigningKey[]> {
  let found = await keys.list(purpose);
  if (found.length === 0) {
    try {
      await keys.create({ id: `${purpose}1`, purpose, secret: randomBytes(32), createdAt: new Date() });
    } catch {
      // another node created it first
    }
    found = await keys.list(purpose);
  }
  return found;
}
