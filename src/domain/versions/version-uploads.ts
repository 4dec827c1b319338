import type { Readable } from 'node:stream';
import { fileInfected } from '../../errors/admission-errors.ts';
import {
  etagMismatch,
  fileNotFound,
  fileNotVerified,
  fileOnHold,
  fileTooLarge,
  uploadMissing,
  uploadNotFound,
} from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { admittedCustomData, admitUpload, toInfectedEvent } from '../admission/admit-upload.ts';
import { keepAdoptedForHook } from '../admission/keep-adopted-for-hook.ts';
import type { StoredBlob } from '../blobs/blob-store.ts';
import { toUnixSeconds } from '../clock.ts';
import { toFileEvent } from '../events/file-events.ts';
import { adoptDirectUpload } from '../files/adopt-direct-upload.ts';
import { checkUploadBody, type SentBody } from '../files/check-upload-body.ts';
import { toContentType } from '../files/content-type.ts';
import {
  type FileRecord,
  type PendingUpload,
  toPinnedContent,
  type UploadContract,
} from '../files/file-record.ts';
import { discardBlob } from '../files/file-stores.ts';
import type { FileUploadsOptions } from '../files/file-uploads-options.ts';
import { getAccessibleFile } from '../files/get-accessible-file.ts';
import type { GatewayLink } from '../files/get-linked-file.ts';
import { toStorageKey } from '../files/storage-key.ts';
import { toQuotedEtag } from '../files/upload-contract.ts';
import type { ProjectSettings } from '../identity/project-settings.ts';
import { newId } from '../ids.ts';
import type { IssuedLink } from '../links/link-issuer.ts';
import type { VersionUpload } from './file-version.ts';
import { releaseBlobs } from './release-blobs.ts';
import { toUploadTarget } from './upload-target.ts';
import type { VersionRepository } from './version-repository.ts';

export type VersionUploadsOptions = Omit<FileUploadsOptions, 'events'> & {
  versions: VersionRepository;
  settingsOf: (projectId: string) => Promise<ProjectSettings>;
};

/**
 * New content for an existing file (issue 38, item 1), in the three steps of a new file's
 * upload: the request (POST /api/v1/file/:id/versions), the PUT to its link, and the verify,
 * which makes the bytes the file's current version in one commit. The file keeps its id, path,
 * ACL, folder shares and customData; its earlier content stays an earlier version.
 */
export class VersionUploads {
  readonly #o: VersionUploadsOptions;

  constructor(options: VersionUploadsOptions) {
    this.#o = options;
  }

  /**
   * The creator or an admin asks to replace a verified file: the file, an upload and its signed
   * link. `keepUntil` (Unix s) keeps the upload past its link, as long as a resumable upload of
   * it may go on.
   */
  async request(
    principal: Principal,
    fileId: string,
    declared: UploadContract,
    keepUntil?: number,
  ): Promise<{ file: FileRecord; upload: VersionUpload; link: IssuedLink }> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    if (!file.verified) throw fileNotVerified();
    if (file.hold) throw fileOnHold();
    // The project's size and type rules as for a new file; the quotas (bytes: a version adds no
    // file) are judged by the insert itself, under the usage locks.
    const maxBytes = await this.#o.limits.maxFileSizeBytes(file.projectId);
    if ((declared.sizeBytes ?? 0) > maxBytes) throw fileTooLarge(maxBytes);
    const contentType =
      declared.contentType ?? (this.#o.directUploads ? toContentType(undefined, file.filePath) : undefined);
    if (contentType !== undefined) await this.#o.limits.assertTypeAllowed(file.projectId, contentType);
    const now = this.#o.clock.now();
    const expiresAt = toUnixSeconds(now) + this.#o.uploadLinkTtlSeconds;
    const upload: VersionUpload = {
      id: newId(),
      fileId: file.id,
      projectId: file.projectId,
      creatorId: file.creatorId,
      requestedBy: principal.userId,
      expiresAt: Math.max(expiresAt, keepUntil ?? 0),
      declared,
      pendingUpload: null,
      createdAt: now,
    };
    await this.#o.versions.createUpload(upload, await this.#o.limits.quotasOf(file.projectId));
    const link = await this.#o.links.issueVersionUpload(
      {
        id: upload.id,
        storageKey: toStorageKey({ projectId: file.projectId, id: upload.id }),
        contentType: toContentType(declared.contentType ?? undefined, file.filePath),
        declared,
      },
      expiresAt,
      toUnixSeconds(now),
    );
    return { file, upload, link };
  }

  /**
   * The gateway's PUT to a version upload link: the body is held to the upload's contract and
   * the project's limits as a new file's is, stored under the upload's own key, and committed to
   * the upload (the last PUT wins; the bytes it replaces go after the commit).
   */
  async acceptUpload(
    link: GatewayLink,
    body: Readable,
    sent: SentBody,
    signal?: AbortSignal,
  ): Promise<StoredBlob> {
    await this.#o.links.assertGatewayLink(
      { operation: 'upload-version', fileId: link.fileId, expiresAt: link.expiresAt },
      link,
      toUnixSeconds(this.#o.clock.now()),
    );
    const upload = await this.#o.versions.findUpload(link.fileId);
    const file = upload && (await this.#o.files.findById(upload.fileId));
    if (!upload || !file) throw uploadNotFound();
    const target = toUploadTarget(file, upload);
    const tap = await this.#o.scans?.tapUpload(file.projectId, target.declared.sizeBytes);
    const { contentType, check, sizeBytes } = await checkUploadBody(this.#o, target, body, sent, tap);
    const key = toStorageKey(target);
    const stored = await this.#o.blobs.put(key, check, {
      contentType,
      maxBytes: this.#o.maxFileSizeBytes,
      signal,
      ...(sizeBytes !== undefined && { sizeBytes }),
      sha256: () => Buffer.from(check.checksumSha256, 'base64'),
    });
    const pending: PendingUpload = {
      blobVersion: stored.version,
      etag: stored.etag,
      sizeBytes: stored.sizeBytes,
      contentType,
      lastModified: stored.lastModified,
      checksumSha256: check.checksumSha256,
      crc32: check.crc32,
      scan: await tap?.verdict().catch(async (error: unknown) => {
        await discardBlob(this.#o.blobs, key, stored.version);
        throw error;
      }),
    };
    const infected =
      pending.scan?.result === 'infected'
        ? toInfectedEvent(file, pending, undefined, this.#o.clock.now())
        : undefined;
    const outcome = await this.#o.versions
      .commitUpload(upload.id, pending, await this.#o.limits.quotasOf(file.projectId), infected)
      .catch(async (error: unknown) => {
        await discardBlob(this.#o.blobs, key, stored.version);
        throw error;
      });
    if (outcome === 'missing') {
      await discardBlob(this.#o.blobs, key, stored.version);
      throw uploadNotFound();
    }
    if (outcome.replaced) await discardBlob(this.#o.blobs, key, outcome.replaced);
    // Infected bytes are recorded as judged (verify answers FILE_INFECTED too) and go at once.
    if (pending.scan?.result === 'infected') {
      await discardBlob(this.#o.blobs, key, stored.version);
      throw fileInfected(pending.scan.signature);
    }
    return stored;
  }

  /**
   * POST /api/v1/file/:id/versions/:versionId/verify {etag}: the uploaded bytes become the
   * file's current version. Repeating a verify that succeeded answers the same record.
   */
  async verify(principal: Principal, fileId: string, versionId: string, etag: string): Promise<FileRecord> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    const wanted = toQuotedEtag(etag);
    const upload = await this.#o.versions.findUpload(versionId);
    if (!upload || upload.fileId !== file.id) {
      if (file.contentVersion.id === versionId) {
        if (file.etag === wanted) return file;
        throw etagMismatch();
      }
      throw uploadNotFound();
    }
    const target = toUploadTarget(file, upload);
    const pinned = upload.pendingUpload ?? (await adoptDirectUpload(this.#o, target, wanted));
    if (!pinned) throw uploadMissing();
    const adopted = upload.pendingUpload === null;
    const discardAdopted = () =>
      adopted ? discardBlob(this.#o.blobs, toStorageKey(target), pinned.blobVersion) : Promise.resolve();
    if (pinned.etag !== wanted) {
      await discardAdopted();
      throw etagMismatch();
    }
    const keptForHook =
      adopted &&
      (await keepAdoptedForHook({
        hook: this.#o.admissions,
        projectId: file.projectId,
        record: async () =>
          this.#o.versions.recordUpload(
            upload.id,
            null,
            pinned,
            undefined,
            await this.#o.limits.quotasOf(file.projectId),
          ),
        discard: discardAdopted,
      }));
    if (keptForHook) return this.verify(principal, fileId, versionId, etag); // now on its pending upload
    const admitted = await admitUpload({
      gate: this.#o.scans,
      projectId: file.projectId,
      blobs: this.#o.blobs,
      key: toStorageKey(target),
      pinned,
      adopted,
      record: async (judged, event, keptForLater) =>
        this.#o.versions.recordUpload(
          upload.id,
          upload.pendingUpload?.blobVersion ?? null,
          judged,
          event,
          keptForLater ? await this.#o.limits.quotasOf(file.projectId) : undefined,
        ),
      infectedEvent: (verdict) =>
        toInfectedEvent(file, { ...pinned, scan: verdict }, principal, this.#o.clock.now()),
      pendingNow: async () => (await this.#o.versions.findUpload(upload.id))?.pendingUpload,
      hook: this.#o.admissions,
      subject: {
        file,
        versionId: upload.id,
        slot: upload.pendingUpload && { kind: 'version', id: upload.id, blobVersion: pinned.blobVersion },
      },
      by: principal,
    });
    const customData = admittedCustomData(admitted);
    const now = this.#o.clock.now();
    const { versionsKept } = await this.#o.settingsOf(file.projectId);
    const outcome = await this.#o.versions
      .promote(
        file.id,
        {
          versionId: upload.id,
          blobFileId: upload.id,
          blobVersion: pinned.blobVersion,
          etag: pinned.etag,
          content: toPinnedContent(pinned),
          contentCrc32: pinned.crc32 ?? null,
          scan: admitted.scan,
          ...(customData && { customData }),
          createdBy: principal.userId,
        },
        {
          now,
          versionsKept,
          event: toFileEvent('file.version_added', principal, file, now, {
            versionId: upload.id,
            previousVersionId: file.contentVersion.id,
            sizeBytes: pinned.sizeBytes,
            contentType: pinned.contentType,
            etag: pinned.etag,
          }),
          fromUpload: { id: upload.id, pendingVersion: upload.pendingUpload?.blobVersion ?? null },
          // Direct uploads count their bytes only from here: the quotas are checked with them.
          ...(adopted && { quotas: await this.#o.limits.quotasOf(file.projectId) }),
        },
      )
      .catch(async (error: unknown) => {
        await discardAdopted();
        throw error;
      });
    if (typeof outcome === 'string') {
      await discardAdopted();
      if (outcome === 'held') throw fileOnHold();
      if (outcome === 'missing') throw fileNotFound();
      // Another verify or PUT committed between our read and our write: answer as it left things.
      const current = await this.#o.files.findById(file.id);
      if (current?.contentVersion.id === versionId && current.etag === wanted) return current;
      throw etagMismatch();
    }
    await releaseBlobs(this.#o, file.projectId, outcome.pruned);
    return outcome.file;
  }
}
