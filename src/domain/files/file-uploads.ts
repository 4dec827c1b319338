import type { Readable } from 'node:stream';
import { fileInfected } from '../../errors/admission-errors.ts';
import { alreadyVerified, etagMismatch, fileNotFound, uploadMissing } from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { admittedCustomData, admitUpload, toInfectedEvent } from '../admission/admit-upload.ts';
import { keepAdoptedForHook } from '../admission/keep-adopted-for-hook.ts';
import type { StoredBlob } from '../blobs/blob-store.ts';
import { toUnixSeconds } from '../clock.ts';
import type { NewEvent } from '../events/event.ts';
import { assertActsForUser } from '../identity/service-keys.ts';
import { newFileId } from '../ids.ts';
import type { IssuedLink } from '../links/link-issuer.ts';
import { adoptDirectUpload } from './adopt-direct-upload.ts';
import { checkUploadBody, type SentBody } from './check-upload-body.ts';
import { toContentType } from './content-type.ts';
import { parseCustomData } from './custom-data.ts';
import type { FileRecord, PendingUpload, PermissionScope, UploadContract } from './file-record.ts';
import { discardBlob } from './file-stores.ts';
import type { FileUploadsOptions } from './file-uploads-options.ts';
import { getAccessibleFile } from './get-accessible-file.ts';
import { type GatewayLink, getLinkedFile } from './get-linked-file.ts';
import { markUploadVerified } from './mark-upload-verified.ts';
import { toStorageKey } from './storage-key.ts';
import type { QuotaLimits } from './storage-usage-repository.ts';
import { noContract, toQuotedEtag } from './upload-contract.ts';
import { validateFilePath } from './validate-file-path.ts';

/** An upload's three steps (spec 4.1, 4.2): the request, the gateway's PUT, and the verify. */
export class FileUploads {
  readonly #o: FileUploadsOptions;

  constructor(options: FileUploadsOptions) {
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
      /**
       * Unix seconds until which the record waits for its upload, when that is longer than
       * putFileUrl's life (a resumable upload's deadline); putFileUrl expires as usual.
       */
      keepUntil?: number;
    },
  ): Promise<{ file: FileRecord; upload: IssuedLink }> {
    // Files are owned by users: a service key uploads nothing of its own.
    assertActsForUser(principal);
    const filePath = validateFilePath(request.filePath);
    const customData = request.customData === undefined ? null : parseCustomData(request.customData);
    const declared = request.declared ?? noContract;
    const quotas = await this.#assertRoomFor(principal, filePath, declared);
    const now = this.#o.clock.now();
    const uploadExpiresAt = toUnixSeconds(now) + this.#o.uploadLinkTtlSeconds;
    const { file, replaced } = await this.#o.files.create(
      {
        id: newFileId(),
        projectId: principal.projectId,
        creatorId: principal.userId,
        filePath,
        permissionScope: request.permissionScope,
        uploadExpiresAt: Math.max(uploadExpiresAt, request.keepUntil ?? 0),
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
    return { file, upload: await this.#issueUploadLink(file, uploadExpiresAt, now) };
  }

  /**
   * A new putFileUrl for a record that still waits for its content (an upload request repeated
   * for an unfinished resumable upload): as long-lived as a new one, never past the record's wait.
   */
  async reissueUploadLink(file: FileRecord): Promise<IssuedLink> {
    const now = this.#o.clock.now();
    const expiresAt = Math.min(toUnixSeconds(now) + this.#o.uploadLinkTtlSeconds, file.uploadExpiresAt);
    return this.#issueUploadLink(file, expiresAt, now);
  }

  #issueUploadLink(file: FileRecord, expiresAt: number, now: Date): Promise<IssuedLink> {
    return this.#o.links.issueUpload(
      {
        id: file.id,
        storageKey: toStorageKey(file),
        contentType: toContentType(file.declared.contentType ?? undefined, file.filePath),
        declared: file.declared,
      },
      expiresAt,
      toUnixSeconds(now),
    );
  }

  /** The project's limits and quotas for what a request declares, before its record exists. */
  #assertRoomFor(principal: Principal, filePath: string, declared: UploadContract): Promise<QuotaLimits> {
    // Direct uploads must carry the type signed into their URL: it is checked here, once.
    const contentType =
      declared.contentType ?? (this.#o.directUploads ? toContentType(undefined, filePath) : undefined);
    return this.#o.limits.assertRoomForFile(
      { projectId: principal.projectId, userId: principal.userId },
      { sizeBytes: declared.sizeBytes ?? 0, ...(contentType !== undefined && { contentType }) },
    );
  }

  /**
   * Data plane, upload link: stores the body as a new blob version, then commits it to the
   * record only while the record is unverified (PocketBase's order: bytes first, record
   * second, the new bytes removed if the record refuses them). The upload it replaces is
   * removed after the commit. Once verified, no upload can change the file. The body is
   * checked on its way to the store (check-upload-body.ts) and its SHA-256 recorded.
   */
  async acceptUpload(
    link: GatewayLink,
    body: Readable,
    sent: SentBody,
    signal?: AbortSignal,
  ): Promise<StoredBlob> {
    const file = await getLinkedFile(this.#o, link, 'upload');
    if (file.verified) throw alreadyVerified();
    const tap = await this.#o.scans?.tapUpload(file.projectId, file.declared.sizeBytes);
    const { contentType, check, sizeBytes } = await checkUploadBody(this.#o, file, body, sent, tap);
    const key = toStorageKey(file);
    const stored = await this.#o.blobs.put(key, check, {
      contentType,
      maxBytes: this.#o.maxFileSizeBytes,
      signal,
      ...(sizeBytes !== undefined && { sizeBytes }),
      // The check hashes every byte for the checksum: the local stores tag the version with it.
      sha256: () => Buffer.from(check.checksumSha256, 'base64'),
    });
    const upload: PendingUpload = {
      blobVersion: stored.version,
      etag: stored.etag,
      sizeBytes: stored.sizeBytes,
      contentType,
      lastModified: stored.lastModified,
      checksumSha256: check.checksumSha256,
      crc32: check.crc32,
      scan: await tap?.verdict().catch(async (error: unknown) => {
        await this.#discard(key, stored.version);
        throw error;
      }),
    };
    const quotas = await this.#o.limits.quotasOf(file.projectId);
    const infected = upload.scan?.result === 'infected' ? this.#infectedEvent(file, upload) : undefined;
    const replaced = await this.#commitUpload(file, upload, quotas, infected).catch(
      async (error: unknown) => {
        await this.#discard(key, stored.version);
        throw error;
      },
    );
    this.#o.events?.uploadCommitted(stored.sizeBytes);
    if (replaced) await this.#discard(key, replaced);
    // Infected bytes are recorded as judged (verify answers FILE_INFECTED too) and go at once.
    if (upload.scan?.result === 'infected') {
      await this.#discard(key, stored.version);
      throw fileInfected(upload.scan.signature);
    }
    return stored;
  }

  /** Commits the upload to the record; answers the version it replaced. */
  async #commitUpload(
    file: FileRecord,
    upload: PendingUpload,
    quotas: QuotaLimits,
    event?: NewEvent,
  ): Promise<string | null> {
    const outcome = await this.#o.files.commitUpload(file.id, upload, quotas, event);
    if (outcome === 'verified') throw alreadyVerified();
    if (outcome === 'missing') throw fileNotFound();
    return outcome.replaced;
  }

  /**
   * Spec 4.2: compares the etag with the last upload committed to the record and pins that
   * upload's blob version: from here on the record and its bytes cannot drift apart.
   */
  async verifyUpload(principal: Principal, fileId: string, etag: string): Promise<FileRecord> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    const wanted = toQuotedEtag(etag);
    if (file.verified) {
      if (file.etag === wanted) return file; // a repeated verify answers the same record
      throw etagMismatch();
    }
    const pinned = file.pendingUpload ?? (await adoptDirectUpload(this.#o, file, wanted));
    if (!pinned) throw uploadMissing();
    if (pinned.etag !== wanted) throw etagMismatch();
    const keptForHook =
      !file.pendingUpload &&
      (await keepAdoptedForHook({
        hook: this.#o.admissions,
        projectId: file.projectId,
        record: async () =>
          this.#o.files.recordUpload(
            file.id,
            null,
            pinned,
            undefined,
            await this.#o.limits.quotasOf(file.projectId),
          ),
        discard: () => this.#discard(toStorageKey(file), pinned.blobVersion),
      }));
    if (keptForHook) return this.verifyUpload(principal, fileId, etag); // now on its pending upload
    const admitted = await admitUpload({
      gate: this.#o.scans,
      projectId: file.projectId,
      blobs: this.#o.blobs,
      key: toStorageKey(file),
      pinned,
      adopted: !file.pendingUpload,
      record: async (judged, event, keptForLater) =>
        this.#o.files.recordUpload(
          file.id,
          file.pendingUpload?.blobVersion ?? null,
          judged,
          event,
          keptForLater ? await this.#o.limits.quotasOf(file.projectId) : undefined,
        ),
      infectedEvent: (verdict) => this.#infectedEvent(file, { ...pinned, scan: verdict }, principal),
      pendingNow: async () => (await this.#o.files.findById(file.id))?.pendingUpload,
      hook: this.#o.admissions,
      subject: {
        file,
        versionId: file.id,
        slot: file.pendingUpload && { kind: 'file', id: file.id, blobVersion: pinned.blobVersion },
      },
      by: principal,
    });
    const { scan } = admitted;
    const pinnedScanned = { ...pinned, scan };
    const verified = await markUploadVerified(
      this.#o,
      principal,
      file,
      pinnedScanned,
      admittedCustomData(admitted),
    );
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

  #infectedEvent(file: FileRecord, upload: PendingUpload, by?: Principal): NewEvent {
    return toInfectedEvent(file, upload, by, this.#o.clock.now());
  }

  #discard(key: string, version: string): Promise<void> {
    return discardBlob(this.#o.blobs, key, version);
  }
}
