import type { Config } from '../config/config.ts';
import type { BlobStore } from '../domain/blobs/blob-store.ts';
import type { BlobSweeper } from '../domain/blobs/blob-sweeper.ts';
import type { Clock } from '../domain/clock.ts';
import type { HashThread } from '../domain/files/hash-thread.ts';
import type { AccessEpochWatch } from '../domain/identity/access-epoch-watch.ts';
import type { LeaseHolders } from '../domain/resumable/lease-holders.ts';
import type { PartialBlobStore } from '../domain/resumable/partial-blob-store.ts';
import type { Database } from '../persistence/database.ts';
import type { Repositories } from '../persistence/repositories/create-repositories.ts';

/**
 * What each capability's wiring builds on: the configuration and the stores services.ts
 * picked and opened. A capability's module takes this and answers its part of `Services`.
 */
export type WiringContext = {
  config: Config;
  clock: Clock;
  database: Database;
  /** Users are read through the access epoch's cache (services.ts). */
  repositories: Repositories;
  blobs: BlobStore & BlobSweeper;
  /** Where resumable uploads' bytes wait; undefined on a store without resumable uploads. */
  partials: PartialBlobStore | undefined;
  /** A fresh blob version name (the blob stores' naming). */
  newBlobVersion: () => string;
  /** One hashing thread for the process: uploads' SHA-256 (their checksum and the local stores' ETag). */
  hashes: HashThread;
  /** This process as an upload lease's holder, and how it tells a dead holder (issue 35). */
  leaseHolders: LeaseHolders;
  /** Caches and key rings read again when it moves. */
  accessEpoch: AccessEpochWatch;
  /** The base URL links are built on; set once the server knows its address. */
  publicUrl: { value: string };
};
