import type { Config } from '../config/config.ts';
import type { BlobStore } from '../domain/blobs/blob-store.ts';
import type { BlobSweeper } from '../domain/blobs/blob-sweeper.ts';
import { type Clock, systemClock } from '../domain/clock.ts';
import { BlobCollector } from '../domain/files/blob-collector.ts';
import { UnverifiedSweeper } from '../domain/files/unverified-sweeper.ts';
import { VersionSweeper } from '../domain/versions/version-sweeper.ts';
import type { Repositories } from '../persistence/repositories/create-repositories.ts';
import type { WiringContext } from './wiring-context.ts';

/** The work `serve` does periodically, beside the requests. */
export type BackgroundJobs = {
  /** Finds and removes stray blobs (coffer gc; periodically in serve). */
  collector: BlobCollector;
  /** Removes expired never-verified records and their bytes (periodically in serve). */
  unverifiedSweeper: UnverifiedSweeper;
  /** Prunes earlier versions past their retention and abandoned version uploads (periodically in serve). */
  versionSweeper: VersionSweeper;
};

export function buildBackgroundJobs({ config, repositories, blobs, clock }: WiringContext): BackgroundJobs {
  return {
    collector: createBlobCollector(config, { repositories, blobs, clock }),
    unverifiedSweeper: new UnverifiedSweeper({
      files: repositories.files,
      blobs,
      clock,
      graceSeconds: config.unverifiedGraceSeconds,
      batchSize: 100,
    }),
    versionSweeper: new VersionSweeper({
      versions: repositories.versions,
      files: repositories.files,
      projects: repositories.projects,
      blobs,
      clock,
      graceSeconds: config.unverifiedGraceSeconds,
      batchSize: 100,
    }),
  };
}

/** The blob collector over the configured stores (serve and `coffer gc` share it). */
export function createBlobCollector(
  config: Config,
  stores: {
    repositories: Pick<Repositories, 'files' | 'resumableUploads' | 'renditions'>;
    blobs: BlobStore & BlobSweeper;
    clock?: Clock;
  },
): BlobCollector {
  const { repositories, blobs, clock = systemClock } = stores;
  return new BlobCollector({
    files: repositories.files,
    blobs,
    sweeper: blobs,
    clock,
    graceSeconds: config.gcGraceSeconds,
    isHeldByUpload: (fileId, version) => repositories.resumableUploads.holdsVersion(fileId, version),
    findRenditionBlobVersions: (keys) => repositories.renditions.findRenditionBlobVersions(keys),
  });
}
