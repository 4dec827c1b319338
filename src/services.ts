/**
 * Assembles the services over the stores the configuration names (open-stores.ts and
 * blob-stores/open-blob-store.ts pick SQLite or PostgreSQL, disk or S3). Each capability is
 * wired in its own module of src/wiring/ over the same WiringContext: a new one adds a module
 * and its line below.
 */
import { newBlobVersion } from './blob-stores/blob-key.ts';
import { openBlobStore, openPartialStore } from './blob-stores/open-blob-store.ts';
import type { Config } from './config/config.ts';
import { type Clock, systemClock } from './domain/clock.ts';
import { HashThread } from './domain/files/hash-thread.ts';
import { AccessEpochWatch } from './domain/identity/access-epoch-watch.ts';
import { CachedUserRepository } from './domain/identity/cached-user-repository.ts';
import { type AccountServices, buildAccountServices } from './wiring/account-services.ts';
import { type BackgroundJobs, buildBackgroundJobs } from './wiring/background-jobs.ts';
import { buildEventServices, type EventServices } from './wiring/event-services.ts';
import { buildFileServices, type FileServices, projectSettingsReader } from './wiring/file-services.ts';
import { buildFolderChangeServices, type FolderChangeServices } from './wiring/folder-change-services.ts';
import { buildFolderServices, type FolderServices } from './wiring/folder-services.ts';
import { buildIdentityServices, type IdentityServices } from './wiring/identity-services.ts';
import { openLocalLeaseHolders } from './wiring/local-lease-holders.ts';
import { buildMailServices, type MailServices } from './wiring/mail-services.ts';
import { buildMetricsServices, type MetricsServices } from './wiring/metrics-services.ts';
import { openStores } from './wiring/open-stores.ts';
import { buildPasskeyServices, type PasskeyServices } from './wiring/passkey-services.ts';
import { buildSignInServices, type SignInServices } from './wiring/sign-in-services.ts';
import { loadSigningKeys } from './wiring/signing-keys.ts';
import { buildTrashServices, type TrashServices } from './wiring/trash-services.ts';
import type { WiringContext } from './wiring/wiring-context.ts';

export type Services = Pick<
  WiringContext,
  'config' | 'clock' | 'database' | 'repositories' | 'blobs' | 'publicUrl'
> &
  IdentityServices &
  FileServices &
  FolderServices &
  FolderChangeServices &
  SignInServices &
  PasskeyServices &
  EventServices &
  MailServices &
  AccountServices &
  BackgroundJobs &
  MetricsServices &
  TrashServices & {
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
  // A sibling worker's change (serve --workers N) is seen here at once: the epoch is read again.
  database.writes.onSiblingWrite(() => accessEpoch.recheck());
  const repositories = {
    ...stores.repositories,
    users: new CachedUserRepository(stores.repositories.users, accessEpoch),
  };
  // One hashing thread for the process: uploads' SHA-256 (their checksum and the local stores' ETag).
  const hashes = new HashThread();
  const blobs = await openBlobStore(config.storageUrl, hashes);
  try {
    if (config.uploadMode === 'direct' && !blobs.presignUpload) {
      throw new Error('COFFER_UPLOAD_MODE=direct needs an S3 storage URL');
    }
    const publicUrl = { value: config.publicUrl ?? `http://${config.host}:${config.port}` };
    const partials = await openPartialStore(blobs, hashes);
    const leaseHolders = await openLocalLeaseHolders();
    const context = {
      ...{ config, clock, database, repositories, blobs, partials, hashes, accessEpoch, publicUrl },
      leaseHolders,
      newBlobVersion,
    };
    const keys = await loadSigningKeys(repositories.signingKeys);
    const observed = buildMetricsServices({
      database,
      storageUsage: repositories.storageUsage,
      clock,
      fromPrimary: options.metricsFromPrimary ?? false,
    });
    const files = buildFileServices(context, { keys, metrics: observed.metrics });
    const events = buildEventServices(context, { metrics: observed.metrics });
    const identity = buildIdentityServices(context, keys);
    const accounts = buildAccountServices(context, { identity, metrics: observed.metrics });
    return {
      config,
      clock,
      database,
      repositories,
      blobs,
      publicUrl,
      ...observed,
      ...identity,
      ...accounts,
      ...files,
      ...buildFolderServices(context),
      ...buildFolderChangeServices(context),
      ...buildSignInServices(context, { identity }),
      ...buildPasskeyServices(context, { identity, keys }),
      ...events,
      ...buildMailServices(context, { metrics: observed.metrics }),
      ...buildBackgroundJobs(context),
      ...buildTrashServices(context, projectSettingsReader(context)),
      close: async () => {
        observed.usageHistory.stop();
        events.eventStream.close();
        files.resumableUploads?.close();
        await files.mediaDecoder.close();
        await accounts.closeAccountMail();
        await database.close();
        if ('close' in blobs && typeof blobs.close === 'function') await blobs.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
