import type { Readable } from 'node:stream';
import {
  accessDenied,
  alreadyVerified,
  etagMismatch,
  fileNotFound,
  fileNotVerified,
  uploadMissing,
  validationFailed,
} from '../../errors/errors.ts';
import { canAccessFile, type FileAction, type Principal } from '../access/decide-file-access.ts';
import { type Clock, toUnixSeconds } from '../clock.ts';
import { isWellFormedId, newId } from '../ids.ts';
import type { IssuedLink, LinkIssuer } from '../links/link-issuer.ts';
import type {
  AclEntry,
  BlobInfo,
  BlobStore,
  ByteRange,
  FileContentInfo,
  FileRecord,
  FileRepository,
  PermissionScope,
} from '../ports.ts';
import { toContentType } from './content-type.ts';
import { toFileName, validateFilePath } from './validate-file-path.ts';

/** The parts of a gateway link: the file id from the path, the rest from the query string. */
export type GatewayLink = { fileId: string; expiresAt: number; kid?: string; sig?: string };

export type FileServiceOptions = {
  files: FileRepository;
  blobs: BlobStore;
  links: LinkIssuer;
  clock: Clock;
  uploadLinkTtlSeconds: number;
  maxFileSizeBytes: number;
};

/** Where a file's bytes live: derived from server ids only, never from the user's filePath. */
export function toStorageKey(file: Pick<FileRecord, 'projectId' | 'id'>): string {
  return `${file.projectId}/${file.id}`;
}

/** The file rules of the spec (4.1–4.5) and DESIGN §4, independent of HTTP. */
export class FileService {
  readonly #o: FileServiceOptions;

  constructor(options: FileServiceOptions) {
    this.#o = options;
  }

  /** Spec 4.1: creates the record (the creator first in its ACL) and a signed upload link. */
  async requestUpload(
    principal: Principal,
    request: { filePath: string; permissionScope: PermissionScope },
  ): Promise<{ file: FileRecord; upload: IssuedLink }> {
    const filePath = validateFilePath(request.filePath);
    const now = this.#o.clock.now();
    const uploadExpiresAt = toUnixSeconds(now) + this.#o.uploadLinkTtlSeconds;
    const { file, replacedFileId } = await this.#o.files.create(
      {
        id: newId(),
        projectId: principal.projectId,
        creatorId: principal.userId,
        filePath,
        permissionScope: request.permissionScope,
        uploadExpiresAt,
      },
      now,
    );
    // The replaced record was never verified and its link had expired: its bytes, if any, go
    // only after the new record is committed (PocketBase's order).
    if (replacedFileId)
      await this.#o.blobs.delete(toStorageKey({ projectId: file.projectId, id: replacedFileId }));
    const upload = await this.#o.links.issueUpload(
      { id: file.id, storageKey: toStorageKey(file), contentType: toContentType(undefined, filePath) },
      uploadExpiresAt,
      toUnixSeconds(now),
    );
    return { file, upload };
  }

  /** Spec 4.2: compares the etag with the stored bytes and records their metadata. */
  async verifyUpload(principal: Principal, fileId: string, etag: string): Promise<FileRecord> {
    const file = await this.#getAccessible(principal, fileId, 'manage');
    const wanted = toQuotedEtag(etag);
    if (file.verified) {
      if (file.etag === wanted) return file; // a repeated verify answers the same record
      throw etagMismatch();
    }
    const info = await this.#o.blobs.head(toStorageKey(file));
    if (!info) throw uploadMissing();
    if (info.etag !== wanted) throw etagMismatch();
    const verified = await this.#o.files.markVerified(
      file.id,
      {
        etag: info.etag,
        content: {
          sizeBytes: info.sizeBytes,
          contentType: info.contentType,
          lastModified: info.lastModified,
        },
      },
      this.#o.clock.now(),
    );
    if (!verified) throw fileNotFound();
    return verified;
  }

  /** Spec 4.3 / 4.4: appends an ACL entry; sharing twice changes nothing. */
  async share(principal: Principal, fileId: string, entry: AclEntry): Promise<FileRecord> {
    const file = await this.#getAccessible(principal, fileId, 'manage');
    const updated = await this.#o.files.addAclEntry(file.id, entry, this.#o.clock.now());
    if (!updated) throw fileNotFound();
    return updated;
  }

  /** Spec 4.5: the record and a download link valid for `expiresInSeconds`. */
  async getWithDownloadLink(
    principal: Principal,
    fileId: string,
    expiresInSeconds: number,
  ): Promise<{ file: FileRecord; download: IssuedLink }> {
    const file = await this.#getAccessible(principal, fileId, 'read');
    if (!file.verified || !file.content) throw fileNotVerified();
    const nowSeconds = toUnixSeconds(this.#o.clock.now());
    const download = await this.#o.links.issueDownload(
      {
        id: file.id,
        storageKey: toStorageKey(file),
        fileName: toFileName(file.filePath),
        contentType: file.content.contentType,
      },
      nowSeconds + expiresInSeconds,
      nowSeconds,
    );
    return { file, download };
  }

  /** GET /api/v1/file: the files the caller may list, newest first, one page. */
  async list(
    principal: Principal,
    page: { pageSize: number; pageNumber: number; filePathPrefix?: string },
  ): Promise<{ files: FileRecord[]; total: number }> {
    return this.#o.files.list({
      projectId: principal.projectId,
      readerId: principal.userId,
      readerRole: principal.role,
      isAdmin: principal.isAdmin,
      filePathPrefix: page.filePathPrefix,
      limit: page.pageSize,
      offset: (page.pageNumber - 1) * page.pageSize,
    });
  }

  /** DELETE /api/v1/file/:id: the record goes first, then its bytes (a failure leaves an orphan blob, never a record without bytes). */
  async delete(principal: Principal, fileId: string): Promise<void> {
    const file = await this.#getAccessible(principal, fileId, 'manage');
    if (!(await this.#o.files.delete(file.id))) throw fileNotFound();
    await this.#o.blobs.delete(toStorageKey(file));
  }

  /** DELETE …/acl/user/:id and …/acl/role/:role; removing an absent entry changes nothing. */
  async unshare(principal: Principal, fileId: string, entry: AclEntry): Promise<FileRecord> {
    const file = await this.#getAccessible(principal, fileId, 'manage');
    if (entry.scope === 'user' && entry.identifier === file.creatorId) {
      throw validationFailed("the creator's own entry cannot be removed");
    }
    const updated = await this.#o.files.removeAclEntry(file.id, entry, this.#o.clock.now());
    if (!updated) throw fileNotFound();
    return updated;
  }

  /**
   * Data plane, upload link: stores the body under the file's storage key. The link is
   * single-use in effect: once the upload is verified its content can no longer be replaced.
   */
  async acceptUpload(
    link: GatewayLink,
    body: Readable,
    declaredContentType: string | undefined,
    signal?: AbortSignal,
  ): Promise<BlobInfo> {
    const file = await this.#getLinked(link, 'upload');
    if (file.verified) throw alreadyVerified();
    const contentType = toContentType(declaredContentType, file.filePath);
    return this.#o.blobs.put(toStorageKey(file), body, {
      contentType,
      maxBytes: this.#o.maxFileSizeBytes,
      signal,
    });
  }

  /** Data plane, download link: the verified file it names (checked before any byte is read). */
  async getDownloadable(link: GatewayLink): Promise<FileRecord & { content: FileContentInfo; etag: string }> {
    const file = await this.#getLinked(link, 'download');
    if (!file.verified || !file.content || !file.etag) throw fileNotVerified();
    return file as FileRecord & { content: FileContentInfo; etag: string };
  }

  /** Opens the bytes (or an inclusive range of them) of a file from getDownloadable. */
  async openContent(file: FileRecord, options: { range?: ByteRange; signal?: AbortSignal } = {}) {
    const blob = await this.#o.blobs.get(toStorageKey(file), options);
    if (!blob) throw fileNotFound();
    return blob;
  }

  async #getLinked(link: GatewayLink, operation: 'upload' | 'download'): Promise<FileRecord> {
    // The signature is checked before anything is looked up: a forged link learns nothing.
    this.#o.links.assertGatewayLink(
      { operation, fileId: link.fileId, expiresAt: link.expiresAt },
      link,
      toUnixSeconds(this.#o.clock.now()),
    );
    const file = await this.#o.files.findById(link.fileId);
    if (!file) throw fileNotFound();
    return file;
  }

  async #getAccessible(principal: Principal, fileId: string, action: FileAction): Promise<FileRecord> {
    const file = isWellFormedId(fileId) ? await this.#o.files.findById(fileId) : undefined;
    if (!file) throw fileNotFound();
    // A file of another project is denied like any other: ids are unguessable (DESIGN §4).
    if (!canAccessFile({ principal, file, action })) throw accessDenied();
    return file;
  }
}

/** Clients must send the ETag with its quotes (spec 4.2); a bare one is accepted too. */
function toQuotedEtag(etag: string): string {
  const trimmed = etag.trim();
  return trimmed.startsWith('"') ? trimmed : `"${trimmed}"`;
}
