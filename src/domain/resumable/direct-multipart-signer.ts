import { fileNotFound, invalidSignature, uploadNotFound, validationFailed } from '../../errors/errors.ts';
import { type ClientInfo, type Principal, toPrincipal } from '../access/decide-file-access.ts';
import { type Clock, toUnixSeconds } from '../clock.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { FileRepository } from '../files/file-repository.ts';
import { getAccessibleFile } from '../files/get-accessible-file.ts';
import type { GatewayLink } from '../files/get-linked-file.ts';
import type { Project } from '../identity/project-repository.ts';
import type { User } from '../identity/user-repository.ts';
import type { LinkIssuer } from '../links/link-issuer.ts';
import type { DirectMultipart } from './direct-multipart.ts';
import type { ClaimedPart } from './direct-multipart-parts.ts';

/** The S3 requests of a multipart upload, as Uppy's `@uppy/aws-s3` asks to sign them, and their methods. */
export const multipartRequestMethods = {
  createMultipartUpload: 'POST',
  uploadPart: 'PUT',
  listParts: 'GET',
  abortMultipartUpload: 'DELETE',
  completeMultipartUpload: 'POST',
} as const;

export type MultipartOperation = keyof typeof multipartRequestMethods;

export type MultipartRequest = {
  operation: MultipartOperation;
  method: string;
  uploadId?: string;
  partNumber?: number;
};

/** What `signRequest` answers the plugin: where to send the request, and the object's key. */
export type SignedMultipartRequest = { url: string; key: string };

export type DirectMultipartSignerOptions = {
  multipart: DirectMultipart;
  files: FileRepository;
  links: Pick<LinkIssuer, 'issueMultipart' | 'assertGatewayLink'>;
  clock: Clock;
  projects: { findById(id: string): Promise<Project | undefined> };
  users: { findById(projectId: string, id: string): Promise<User | undefined> };
  /** The verify of POST /api/v1/file/:id/verify: the checksum, the scan, the admission gate, quota, events. */
  fileUploads: { verifyUpload(principal: Principal, fileId: string, etag: string): Promise<FileRecord> };
};

/**
 * Uppy's `@uppy/aws-s3` (v6, issue 43) with its `signRequest`: the plugin asks for one URL per
 * raw S3 request and sends it itself. Coffer signs only requests on the ONE upload it runs for a
 * file (DirectMultipart: its row, its reservation, its expiry sweep), under the file's own key,
 * never one the client names: CreateMultipartUpload starts that upload in Coffer and answers a
 * link that tells the plugin its UploadId; UploadPart, ListParts and AbortMultipartUpload are
 * presigned S3 URLs on it (an abort is done by Coffer first, so the reservation goes too);
 * CompleteMultipartUpload is a link to Coffer, which completes and verifies the file.
 */
export class DirectMultipartSigner {
  readonly #o: DirectMultipartSignerOptions;

  constructor(options: DirectMultipartSignerOptions) {
    this.#o = options;
  }

  async sign(
    principal: Principal,
    fileId: string,
    request: MultipartRequest,
  ): Promise<SignedMultipartRequest> {
    const { operation, uploadId, partNumber } = request;
    const method = multipartRequestMethods[operation];
    if (request.method !== method)
      throw validationFailed(`${operation} is a ${method}, not a ${request.method}`);
    const { multipart } = this.#o;
    // Access is checked by DirectMultipart, as for its own routes; a link needs the record too.
    const linked = () => getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    if (operation === 'createMultipartUpload') {
      const started = await multipart.start(principal, fileId);
      return this.#link('multipart-start', await linked(), toUnixSeconds(started.expiresAt));
    }
    if (uploadId === undefined) throw validationFailed(`${operation} names the upload: uploadId is required`);
    if (operation === 'uploadPart') {
      if (partNumber === undefined) throw validationFailed('uploadPart names its partNumber');
      const part = { operation: 'UploadPart', partNumber, uploadId } as const;
      return { url: await multipart.presign(principal, fileId, part), key: fileId };
    }
    if (operation === 'listParts') {
      const listing = { operation: 'ListParts', uploadId } as const;
      return { url: await multipart.presign(principal, fileId, listing), key: fileId };
    }
    if (operation === 'completeMultipartUpload') {
      // Only for this upload, which presigning checks (the URL itself is not used).
      await multipart.presign(principal, fileId, { operation: 'ListParts', uploadId });
      const file = await linked();
      // The upload never outlives the record's upload deadline (DirectMultipart's expiry).
      return this.#link('multipart-complete', file, file.uploadExpiresAt);
    }
    const abortUrl = await multipart.presign(principal, fileId, {
      operation: 'AbortMultipartUpload',
      uploadId,
    });
    // Coffer aborts (the row, the parts, the reservation); the plugin's DELETE then finds the
    // upload gone, which S3 answers NoSuchUpload and the plugin only logs.
    await multipart.abort(principal, fileId);
    return { url: abortUrl, key: fileId };
  }

  /** What the plugin's CreateMultipartUpload reads back: the upload Coffer started for the file. */
  async started(link: GatewayLink): Promise<{ key: string; uploadId: string }> {
    const file = await this.#assertLink('multipart-start', link);
    const uploadId = await this.#o.multipart.findUploadId(file.id);
    if (uploadId === undefined) throw uploadNotFound();
    return { key: file.id, uploadId };
  }

  /**
   * The plugin's CompleteMultipartUpload: completes the upload with the parts it names (as
   * POST …/multipart/complete does), then verifies the file as POST …/verify does, as the
   * file's creator (who asked for the link, or an admin for them). Answers the verified record
   * and the upload's ETag; a refused verify throws its error and leaves the file unverified.
   */
  async complete(
    link: GatewayLink,
    parts: readonly ClaimedPart[],
    client?: ClientInfo,
  ): Promise<{ file: FileRecord; etag: string }> {
    const linked = await this.#assertLink('multipart-complete', link);
    const project = await this.#o.projects.findById(linked.projectId);
    const creator = project && (await this.#o.users.findById(project.id, linked.creatorId));
    if (!project || !creator) throw fileNotFound();
    const principal = { ...toPrincipal(project, creator), ...(client && { client }) };
    const etag = await this.#o.multipart.complete(principal, linked.id, parts);
    return { file: await this.#o.fileUploads.verifyUpload(principal, linked.id, etag), etag };
  }

  async #link(
    operation: 'multipart-start' | 'multipart-complete',
    file: FileRecord,
    expiresAt: number,
  ): Promise<SignedMultipartRequest> {
    const url = await this.#o.links.issueMultipart(operation, file, expiresAt);
    return { url, key: file.id };
  }

  /** The file a link of this operation names, at the links generation it was signed under. */
  async #assertLink(
    operation: 'multipart-start' | 'multipart-complete',
    link: GatewayLink,
  ): Promise<FileRecord> {
    if (link.generation === undefined || link.version !== undefined) throw invalidSignature();
    const claims = { operation, fileId: link.fileId, expiresAt: link.expiresAt, generation: link.generation };
    await this.#o.links.assertGatewayLink(claims, link, toUnixSeconds(this.#o.clock.now()));
    const file = await this.#o.files.findById(link.fileId);
    if (!file || file.linksGeneration !== link.generation) throw fileNotFound();
    return file;
  }
}
