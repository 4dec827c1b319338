import { setTimeout as sleep } from 'node:timers/promises';
import type { BlobStore } from '../blobs/blob-store.ts';
import { toStorageKey } from '../files/storage-key.ts';
import { accessEpochCheckIntervalMs } from './access-epoch-watch.ts';
import type { ProjectDeletionRepository } from './project-deletion-repository.ts';
import type { Project } from './project-repository.ts';

export type ProjectDeletionReport = {
  projectId: string;
  name: string;
  appCredentials: number;
  files: number;
  blobs: number;
  sessions: number;
  users: number;
};

const batchSize = 500;
/** Blob deletions in flight at once (an S3 store takes them in parallel). */
const blobDeletesAtOnce = 16;

/**
 * `coffer project delete`: the project, its users, sessions, files with their ACLs, and their
 * bytes. Its app credentials go first, so no call reaches the project from the next epoch
 * read on; then bytes before records, in bounded batches, so that a run stopped anywhere (a
 * crash, a kill, a store down) leaves a project that a second run finishes: the project row
 * goes last. Bytes of an upload still streaming when its record went are stray blobs, which
 * the collector removes (`coffer gc`, serve's periodic pass).
 */
export async function deleteProject(options: {
  deletion: ProjectDeletionRepository;
  blobs: BlobStore;
  project: Project;
}): Promise<ProjectDeletionReport> {
  const { deletion, project } = options;
  const report = {
    projectId: project.id,
    name: project.name,
    appCredentials: 0,
    files: 0,
    blobs: 0,
    sessions: 0,
    users: 0,
  };
  report.appCredentials = await deletion.deleteAppCredentials(project.id);
  // Requests that passed the app barrier before every process saw the revoke finish first.
  await sleep(4 * accessEpochCheckIntervalMs);
  await deleteFiles(options, report);
  report.sessions = await repeat((limit) => deletion.deleteSessions(project.id, limit));
  report.users = await repeat((limit) => deletion.deleteUsers(project.id, limit));
  // A file created by a request that was already past every barrier when its user went.
  await deleteFiles(options, report);
  await deletion.deleteProject(project.id);
  return report;
}

async function deleteFiles(
  options: { deletion: ProjectDeletionRepository; blobs: BlobStore; project: Project },
  report: ProjectDeletionReport,
): Promise<void> {
  const { deletion, blobs, project } = options;
  for (;;) {
    const files = await deletion.findFiles(project.id, batchSize);
    if (files.length === 0) return;
    const versions = files.flatMap((file) =>
      file.blobVersions.map((version) => ({
        key: toStorageKey({ projectId: project.id, id: file.fileId }),
        version,
      })),
    );
    for (let start = 0; start < versions.length; start += blobDeletesAtOnce) {
      const slice = versions.slice(start, start + blobDeletesAtOnce);
      await Promise.all(slice.map(({ key, version }) => blobs.delete(key, version)));
    }
    report.blobs += versions.length;
    report.files += await deletion.deleteFiles(files.map((file) => file.fileId));
  }
}

async function repeat(deleteBatch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(batchSize);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
