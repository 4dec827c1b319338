import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  accessDenied,
  alreadyVerified,
  contentMismatch,
  etagMismatch,
  fileNotFound,
  fileNotVerified,
  internal,
  linkRevoked,
  uploadMissing,
  userNotFound,
  validationFailed,
} from '../../errors/errors.ts';
import { canAccessFile, type FileAction, type Principal } from '../access/decide-file-access.ts';
import { type Clock, toUnixSeconds } from '../clock.ts';
import { isWellFormedId, newId } from '../ids.ts';
import type { IssuedLink, LinkIssuer } from '../links/link-issuer.ts';
import type {
  AclEntry,
  BlobStore,
  BucketRule,
  ByteRange,
  FileContentInfo,
  FileRecord,
  FileRepository,
  PendingUpload,
  PermissionScope,
  QuotaLimits,
  StoredBlob,
  UploadContract,
  UserRepository,
} from '../ports.ts';
import { type Charge, type TokenBuckets, toBucketKey } from '../rate-limits/token-buckets.ts';
import { ContentCheckStream } from './content-check-stream.ts';
import { toContentType } from './content-type.ts';
import { parseCustomData } from './custom-data.ts';
import type { HashThread } from './hash-thread.ts';
import { peekStart } from './peek-start.ts';
import { sniffContentType, sniffSampleBytes } from './sniff-content-type.ts';
import { assertDeclaredType, noContract } from './upload-contract.ts';
import type { UploadLimits } from './upload-limits.ts';
import { toFileName, validateFilePath } from './validate-file-path.ts';

/** A verified file with everything a download needs. */
export type DownloadableFile = FileRecord & { content: FileContentInfo; etag: string; blobVersion: string };

/** The parts of a gateway link: the file id from the path, the rest from the query string. */
export type GatewayLink = {
  fileId: string;
  expiresAt: number;
  /** Download links: the file's links generation they were issued under (absent: 0). */
  generation?: number;
  kid?: string;
  sig?: string;
};

/** Whom a share names: a role (free-form), or a user of the file's project by id or by email. */
export type ShareTarget = AclEntry | { scope: 'email'; email: string };

export type FileServiceOptions = {
  files: FileRepository;
  /** Sharing with a user checks that the user exists in the project. */
  users: UserRepository;
  /**
   * Shares by email, per user (admins, who may look users up anyway, are not counted): each
   * answer tells whether the address has an account (docs/security.md, "Finding users").
   */
  emailShares: { buckets: TokenBuckets; perUser: BucketRule };
  blobs: BlobStore;
  links: LinkIssuer;
  clock: Clock;
  uploadLinkTtlSeconds: number;
  maxFileSizeBytes: number;
  /** The project's file size, content types and quotas (issue 10, item 10). */
  limits: UploadLimits;
  /** Where uploads' SHA-256 digests are computed, off the request thread. */
  hashes: HashThread;
  /** Direct-upload mode: clients PUT to the store; verify adopts what they stored. */
  directUploads?: boolean;
  /** Told after the fact (metrics); must not throw. */
  events?: FileEvents;
};

/** What the service reports as it happens: an upload's bytes committed, an upload verified. */
export type FileEvents = {
  uploadCommitted(sizeBytes: number): void;
  uploadVerified(): void;
};

/**
 * Where a file's bytes live: derived from server ids only, never from the user's filePath. A
 * copy's bytes live under its source's key (`blobFileId`).
 */
export function toStorageKey(
  file: Pick<FileRecord, 'projectId' | 'id'> & { blobFileId?: string | null },
): string {
  return `${file.projectId}/${file.blobFileId ?? file.id}`;
}

/** The file, if `principal` may do `action` with it: FILE_NOT_FOUND or ACCESS_DENIED otherwise. */
export async function getAccessibleFile(
  files: FileRepository,
  principal: Principal,
  fileId: string,
  action: FileAction,
): Promise<FileRecord> {
  const file = isWellFormedId(fileId) ? await files.findById(fileId) : undefined;
  if (!file) throw fileNotFound();
  // A file of another project is denied like any other: ids are unguessable (DESIGN §4).
  if (!canAccessFile({ principal, file, action })) throw accessDenied();
  return file;
}

/** The file rules of the spec (4.1–4.5) and DESIGN §4, independent of HTTP. */
export class FileService {
  readonly #o: FileServiceOptions;

  constructor(options: FileServiceOptions) {
    this.#o = options;
  }

  /**
   * Spec 4.1: creates the record (the creator first in its ACL) and a signed upload link. What
   * the request declares (`declared`) binds the upload; the project's limits and quotas are
   * checked here first (the quotas again, atomically, with the insert).
   */
  async requestUpload(
    principal: Principal,
    request: {
      filePath: string;
      permissionScope: PermissionScope;
      customData?: unknown;
      declared?: UploadContract;
    },
  ): Promise<{ file: FileRecord; upload: IssuedLink }> {
    const filePath = validateFilePath(request.filePath);
    const customData = request.customData === undefined ? null : parseCustomData(request.customData);
    const declared = request.declared ?? noContract;
    const owner = { projectId: principal.projectId, userId: principal.userId };
    // Direct uploads must carry the type signed into their URL: it is checked here, once.
    const contentType =
      declared.contentType ?? (this.#o.directUploads ? toContentType(undefined, filePath) : undefined);
    const quotas = await this.#o.limits.assertRoomForFile(owner, {
      sizeBytes: declared.sizeBytes ?? 0,
      ...(contentType !== undefined && { contentType }),
    });
    const now = this.#o.clock.now();
    const uploadExpiresAt = toUnixSeconds(now) + this.#o.uploadLinkTtlSeconds;
    const { file, replaced } = await this.#o.files.create(
      {
        id: newId(),
        projectId: principal.projectId,
        creatorId: principal.userId,
        filePath,
        permissionScope: request.permissionScope,
        uploadExpiresAt,
        customData,
        declared,
      },
      now,
      quotas,
    );
    // The replaced record was never verified and its link had expired: its bytes, if any, go
    // only after the new record is committed (PocketBase's order).
    if (replaced?.pendingBlobVersion)
      await this.#discard(
        toStorageKey({ projectId: file.projectId, id: replaced.id }),
        replaced.pendingBlobVersion,
      );
    const upload = await this.#o.links.issueUpload(
      {
        id: file.id,
        storageKey: toStorageKey(file),
        contentType: toContentType(declared.contentType ?? undefined, filePath),
        declared,
      },
      uploadExpiresAt,
      toUnixSeconds(now),
    );
    return { file, upload };
  }

  /**
   * Spec 4.2: compares the etag with the last upload committed to the record and pins that
   * upload's blob version: from here on the record and its bytes cannot drift apart.
   */
  async verifyUpload(principal: Principal, fileId: string, etag: string): Promise<FileRecord> {
    const file = await this.#getAccessible(principal, fileId, 'manage');
    const wanted = toQuotedEtag(etag);
    if (file.verified) {
      if (file.etag === wanted) return file; // a repeated verify answers the same record
      throw etagMismatch();
    }
    const pinned = file.pendingUpload ?? (await this.#adoptDirectUpload(file, wanted));
    if (!pinned) throw uploadMissing();
    if (pinned.etag !== wanted) throw etagMismatch();
    const verified = await this.#o.files
      .markVerified(
        file.id,
        {
          blobVersion: pinned.blobVersion,
          etag: pinned.etag,
          content: {
            sizeBytes: pinned.sizeBytes,
            contentType: pinned.contentType,
            lastModified: pinned.lastModified,
            checksumSha256: pinned.checksumSha256 ?? null,
          },
          pendingVersion: file.pendingUpload?.blobVersion ?? null,
        },
        this.#o.clock.now(),
        // Direct uploads count their bytes only from here: the quotas are checked with them.
        file.pendingUpload ? undefined : await this.#o.limits.quotasOf(file.projectId),
      )
      .catch(async (error: unknown) => {
        if (!file.pendingUpload) await this.#discard(toStorageKey(file), pinned.blobVersion);
        throw error;
      });
    if (verified) {
      this.#o.events?.uploadVerified();
      return verified;
    }
    // Another upload or verify committed between our read and our write: answer as it left things.
    if (!file.pendingUpload) await this.#discard(toStorageKey(file), pinned.blobVersion);
    const current = await this.#o.files.findById(file.id);
    if (!current) throw fileNotFound();
    if (current.verified && current.etag === wanted) return current;
    throw etagMismatch();
  }

  /** Direct-upload mode: the client PUT to the store itself; copy what it holds into a version. */
  async #adoptDirectUpload(file: FileRecord, etag: string): Promise<PendingUpload | undefined> {
    if (!this.#o.directUploads || !this.#o.blobs.adoptDirectUpload) return undefined;
    const adopted = await this.#o.blobs.adoptDirectUpload(toStorageKey(file), etag);
    if (!adopted) return undefined;
    // The store checked the signed length and checksum (see docs/architecture.md for stores
    // that do not): the declared checksum is the content's.
    const { sizeBytes, contentType } = file.declared;
    if (sizeBytes !== null && adopted.sizeBytes !== sizeBytes) {
      await this.#discard(toStorageKey(file), adopted.version);
      throw contentMismatch(`length: ${adopted.sizeBytes} bytes, declared ${sizeBytes}`);
    }
    return {
      blobVersion: adopted.version,
      etag: adopted.etag,
      sizeBytes: adopted.sizeBytes,
      contentType: toContentType(contentType ?? undefined, file.filePath),
      lastModified: adopted.lastModified,
      checksumSha256: file.declared.checksumSha256,
    };
  }

  /**
   * Spec 4.3 / 4.4: appends an ACL entry; sharing twice changes nothing. A user must exist in
   * the file's project (USER_NOT_FOUND), looked up only once the caller may manage the file.
   */
  async share(principal: Principal, fileId: string, target: ShareTarget): Promise<FileRecord> {
    const file = await this.#getAccessible(principal, fileId, 'manage');
    if (target.scope === 'email' && !principal.isAdmin) await this.#takeEmailShare(principal);
    const entry = await this.#toAclEntry(file.projectId, target);
    const updated = await this.#o.files.addAclEntry(file.id, entry, this.#o.clock.now());
    if (!updated) throw fileNotFound();
    return updated;
  }

  /** RATE_LIMITED once the user has asked for its hour's shares by email. */
  async #takeEmailShare(principal: Principal): Promise<void> {
    const { buckets, perUser } = this.#o.emailShares;
    const charge: Charge = {
      key: toBucketKey('email-share', principal.projectId, principal.userId),
      rule: perUser,
    };
    await buckets.takeAll([charge], this.#o.clock.now());
  }

  async #toAclEntry(projectId: string, target: ShareTarget): Promise<AclEntry> {
    const { users } = this.#o;
    if (target.scope === 'role') return target;
    const user =
      target.scope === 'email'
        ? await users.findByEmail(projectId, target.email)
        : await users.findById(projectId, target.identifier);
    if (!user) throw userNotFound();
    return { scope: 'user', identifier: user.id };
  }

  /** Spec 4.5: the record and a download link valid for `expiresInSeconds`. */
  async getWithDownloadLink(
    principal: Principal,
    fileId: string,
    expiresInSeconds: number,
  ): Promise<{ file: FileRecord; download: IssuedLink }> {
    const file = await this.#getAccessible(principal, fileId, 'read');
    if (!file.verified || !file.content || !file.blobVersion) throw fileNotVerified();
    const nowSeconds = toUnixSeconds(this.#o.clock.now());
    const download = await this.#o.links.issueDownload(
      {
        id: file.id,
        storageKey: toStorageKey(file),
        blobVersion: file.blobVersion,
        fileName: toFileName(file.filePath),
        contentType: file.content.contentType,
        linksGeneration: file.linksGeneration,
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
    for (const version of [file.blobVersion, file.pendingUpload?.blobVersion]) {
      if (!version) continue;
      // Copies share verified bytes (file-organizer.ts): the last record naming them removes
      // them. Asked after the delete committed, so a copy that committed first is seen.
      if (file.verified && (await this.#o.files.isBlobReferenced(file.blobFileId ?? file.id, version)))
        continue;
      await this.#discard(toStorageKey(file), version);
    }
  }

  /** PATCH /api/v1/file/:id {customData}: replaces the app's own metadata (creator or admin). */
  async updateCustomData(principal: Principal, fileId: string, customData: unknown): Promise<FileRecord> {
    // The ACL is a barrier: it answers before the body is judged (DESIGN §4).
    const file = await this.#getAccessible(principal, fileId, 'manage');
    const parsed = parseCustomData(customData);
    const updated = await this.#o.files.updateCustomData(file.id, parsed, this.#o.clock.now());
    if (!updated) throw fileNotFound();
    return updated;
  }

  /** POST /api/v1/file/:id/links/revoke: every download link issued so far stops (creator or admin). */
  async revokeLinks(principal: Principal, fileId: string): Promise<void> {
    const file = await this.#getAccessible(principal, fileId, 'manage');
    if (!(await this.#o.files.revokeLinks(file.id))) throw fileNotFound();
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
   * Data plane, upload link: stores the body as a new blob version, then commits it to the
   * record only while the record is unverified (PocketBase's order: bytes first, record
   * second, the new bytes removed if the record refuses them). The upload it replaces is
   * removed after the commit. Once verified, no upload can change the file.
   * Issue 10: the body is held to what its request declared (CONTENT_MISMATCH), to the
   * project's size, types and quotas (cut off at the first byte too many, nothing kept), its
   * type told by its first bytes when the client names none, and its SHA-256 recorded.
   */
  async acceptUpload(
    link: GatewayLink,
    body: Readable,
    sentContentType: string | undefined,
    signal?: AbortSignal,
  ): Promise<StoredBlob> {
    const file = await this.#getLinked(link, 'upload');
    if (file.verified) throw alreadyVerified();
    const { declared } = file;
    assertDeclaredType(declared.contentType, sentContentType);
    const owner = { projectId: file.projectId, userId: file.creatorId };
    const countedBytes = file.pendingUpload?.sizeBytes ?? declared.sizeBytes ?? 0;
    const limits = await this.#o.limits.streamingLimits(owner, countedBytes);
    // A sample no larger than the first byte too many: a body over a limit is refused as soon
    // as that byte arrives, not after a sample a slow client may never finish sending.
    const sampleBytes = Math.min(sniffSampleBytes, ...limits.map((limit) => limit.maxBytes + 1));
    const { head, body: whole } = await peekStart(body, sampleBytes);
    const sniffed = await sniffContentType(head);
    const contentType = toContentType(
      sentContentType || (declared.contentType ?? undefined),
      file.filePath,
      sniffed,
    );
    await this.#o.limits.assertTypeAllowed(file.projectId, contentType);
    // security: bytes that tell another type (HTML labelled image/png) must be allowed too.
    if (sniffed) await this.#o.limits.assertTypeAllowed(file.projectId, sniffed);
    const check = new ContentCheckStream({
      declared,
      limits,
      sha256: this.#o.hashes.open('sha256'),
    });
    // The check's own failure reaches the store through the stream; this only stops a rejection going unheard.
    pipeline(whole, check).catch(() => {});
    const key = toStorageKey(file);
    const stored = await this.#o.blobs.put(key, check, {
      contentType,
      maxBytes: this.#o.maxFileSizeBytes,
      signal,
    });
    const upload: PendingUpload = {
      blobVersion: stored.version,
      etag: stored.etag,
      sizeBytes: stored.sizeBytes,
      contentType,
      lastModified: stored.lastModified,
      checksumSha256: check.checksumSha256,
    };
    const quotas = await this.#o.limits.quotasOf(file.projectId);
    const replaced = await this.#commitUpload(file, upload, quotas).catch(async (error: unknown) => {
      await this.#discard(key, stored.version);
      throw error;
    });
    this.#o.events?.uploadCommitted(stored.sizeBytes);
    if (replaced) await this.#discard(key, replaced);
    return stored;
  }

  /** Commits the upload to the record; answers the version it replaced. */
  async #commitUpload(file: FileRecord, upload: PendingUpload, quotas: QuotaLimits): Promise<string | null> {
    const outcome = await this.#o.files.commitUpload(file.id, upload, quotas);
    if (outcome === 'verified') throw alreadyVerified();
    if (outcome === 'missing') throw fileNotFound();
    return outcome.replaced;
  }

  /** Removes bytes no record needs; a failure leaves a stray version for `coffer gc`, never an error. */
  async #discard(key: string, version: string): Promise<void> {
    await this.#o.blobs.delete(key, version).catch(() => {});
  }

  /** Data plane, download link: the verified file it names (checked before any byte is read). */
  async getDownloadable(link: GatewayLink): Promise<DownloadableFile> {
    const file = await this.#getLinked(link, 'download');
    // The generation came with the record (no other read): a revocation or an unshare moved it
    // on, in the database, so every process and node refuses the older links at once.
    if ((link.generation ?? 0) !== file.linksGeneration) throw linkRevoked();
    if (!file.verified || !file.content || !file.etag || !file.blobVersion) throw fileNotVerified();
    return file as DownloadableFile;
  }

  /** Opens the bytes (or an inclusive range of them) of a file from getDownloadable. */
  async openContent(file: DownloadableFile, options: { range?: ByteRange; signal?: AbortSignal } = {}) {
    const blob = await this.#o.blobs.get(toStorageKey(file), file.blobVersion, options);
    if (!blob) throw fileNotFound();
    // The version is immutable, so this only fails if the store lost or damaged the bytes: then
    // answer an error rather than a body of another length than the one declared.
    if (blob.info.sizeBytes !== file.content.sizeBytes) {
      if (!Buffer.isBuffer(blob.body)) blob.body.destroy();
      throw internal(new Error(`stored size of ${toStorageKey(file)} differs from its record`));
    }
    return blob;
  }

  async #getLinked(link: GatewayLink, operation: 'upload' | 'download'): Promise<FileRecord> {
    // The signature is checked before anything is looked up: a forged link learns nothing.
    await this.#o.links.assertGatewayLink(
      { operation, fileId: link.fileId, expiresAt: link.expiresAt, generation: link.generation },
      link,
      toUnixSeconds(this.#o.clock.now()),
    );
    const file = await this.#o.files.findById(link.fileId);
    if (!file) throw fileNotFound();
    return file;
  }

  #getAccessible(principal: Principal, fileId: string, action: FileAction): Promise<FileRecord> {
    return getAccessibleFile(this.#o.files, principal, fileId, action);
  }
}

/** Clients must send the ETag with its quotes (spec 4.2); a bare one is accepted too. */
function toQuotedEtag(etag: string): string {
  const trimmed = etag.trim();
  return trimmed.startsWith('"') ? trimmed : `"${trimmed}"`;
}
