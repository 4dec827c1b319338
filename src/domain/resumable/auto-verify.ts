import { uploadNotFound } from '../../errors/errors.ts';
import { type ClientInfo, type Principal, toPrincipal } from '../access/decide-file-access.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { Project } from '../identity/project-repository.ts';
import type { User } from '../identity/user-repository.ts';
import type { UploadStatus } from './resumable-uploads.ts';

export type AutoVerifyServices = {
  /** The verify of POST /api/v1/file/:id/verify: the checksum, the scan and the admission gate. */
  fileUploads: { verifyUpload(principal: Principal, fileId: string, etag: string): Promise<FileRecord> };
  repositories: {
    projects: { findById(id: string): Promise<Project | undefined> };
    users: { findById(projectId: string, id: string): Promise<User | undefined> };
    files: { findById(id: string): Promise<FileRecord | undefined> };
  };
};

/**
 * Issue 43: a tus upload whose link asked for it (Upload-Metadata `verify=true`) or whose
 * project says `resumableAutoVerify=true` is verified when its last byte lands, by the very
 * verify a client would call, as the upload's creator. Answers the verified record, or
 * undefined when the upload is unfinished or not auto-verified (a new version's upload is
 * verified through its own route). A verify that fails throws its error (422, 503, …) and
 * leaves the upload as the plain verify does. Idempotent: the verify of a record already
 * verified with this ETag answers it again, so a repeated last PATCH or a HEAD verifies once.
 */
export async function verifyOnLastByte(
  services: AutoVerifyServices,
  status: UploadStatus,
  client?: ClientInfo,
): Promise<FileRecord | undefined> {
  if (status.offset < status.length || status.etag === undefined) return undefined;
  const { repositories } = services;
  const project = await repositories.projects.findById(status.target.projectId);
  if (!project || !(status.verifyAsked || project.settings.resumableAutoVerify)) return undefined;
  if (!(await repositories.files.findById(status.target.fileId))) return undefined;
  const creator = await repositories.users.findById(project.id, status.target.creatorId);
  if (!creator) throw uploadNotFound();
  const principal = { ...toPrincipal(project, creator), ...(client && { client }) };
  return services.fileUploads.verifyUpload(principal, status.target.fileId, status.etag);
}
