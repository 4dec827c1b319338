import {
  alreadyVerified,
  uploadFinished,
  uploadLocked,
  uploadNotFound,
  validationFailed,
} from '../../errors/errors.ts';
import type { Principal } from '../access/decide-file-access.ts';
import { type Clock, toUnixSeconds } from '../clock.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { FileRepository } from '../files/file-repository.ts';
import { getAccessibleFile } from '../files/get-accessible-file.ts';
import { beginPartialUpload } from './begin-partial-upload.ts';
import { type CommitOptions, commitResumable } from './commit-resumable.ts';
import { assertPartsMatch, type ClaimedPart } from './direct-multipart-parts.ts';
import type { LeaseHolders } from './lease-holders.ts';
import type {
  DirectParts,
  DirectRequest,
  PartialBlobStore,
  PresignedPart,
  StoredPart,
} from './partial-blob-store.ts';
import { type ResumableUpload, toPartialBlob } from './resumable-upload.ts';
import type { ResumableUploads } from './resumable-uploads.ts';
import { UploadLeases } from './upload-lease.ts';

/** A partial store whose parts clients can send to directly (S3). */
export type DirectPartialStore = PartialBlobStore &
  Required<Pick<PartialBlobStore, 'presignParts' | 'listParts' | 'presignRequest'>>;

export function takesDirectParts(partials: PartialBlobStore | undefined): partials is DirectPartialStore {
  return (
    partials?.presignParts !== undefined &&
    partials.listParts !== undefined &&
    partials.presignRequest !== undefined
  );
}

export type DirectMultipartOptions = CommitOptions & {
  /** The files whose uploads these are (a new version's parts are not offered yet). */
  files: FileRepository;
  partials: DirectPartialStore;
  clock: Clock;
  /** A fresh blob version name (the blob stores' naming). */
  newBlobVersion: () => string;
  /** Tells a lease whose process died (default: none is ever known dead; leases lapse). */
  leaseHolders?: LeaseHolders;
  /** How long an upload lives after the client last asked for its URLs (a day by default). */
  expirySeconds: number;
  /** No upload lives longer than this from its start. */
  maxAgeSeconds: number;
  /** Aborting is tus termination: the bytes, the row, and the record if it never took an upload. */
  resumableUploads: Pick<ResumableUploads, 'discard'>;
};

/** A started upload: where to PUT each part, until `expiresAt`. */
export type StartedMultipart = DirectParts<PresignedPart> & { expiresAt: Date };

/** SigV4 presigned URLs live at most a week. */
const maxUrlSeconds = 7 * 24 * 3600;

/**
 * Parallel uploads straight to S3 (issue 20, the contract of Uppy's `@uppy/aws-s3` multipart):
 * the file's manager asks for presigned part URLs, PUTs the parts to S3 in any order and at
 * once, and asks Coffer to complete. The upload is a resumable upload's row and S3 multipart
 * upload (S3PartialStore's layout), so the lease, the expiry sweep, gc's protection and the
 * record's reservation hold as for tus; completion is the tus commit, a PUT's.
 */
export class DirectMultipart {
  readonly #o: DirectMultipartOptions;
  readonly #leases: UploadLeases;

  constructor(options: DirectMultipartOptions) {
    this.#o = options;
    this.#leases = new UploadLeases({
      uploads: options.uploads,
      clock: options.clock,
      ...(options.leaseHolders && { holders: options.leaseHolders }),
    });
  }

  /**
   * Starts the file's upload, or answers the one under way again with fresh URLs (a client
   * resuming after a reload): asking is a sign of life, so its expiry moves on.
   */
  async start(principal: Principal, fileId: string): Promise<StartedMultipart> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    const length = this.#assertUploadable(file);
    const found = await this.#o.uploads.findById(toUploadId(file.id));
    if (found?.state === 'committed') throw uploadFinished();
    if (found && found.expiresAt <= this.#o.clock.now()) {
      // The sweeper's work, done now (the row's id is needed); it may take a never-uploaded
      // record with it, as a tus upload's expiry does: so the record is read again.
      await this.#leases.withLease(found.id, () => this.#o.resumableUploads.discard(found));
      return this.start(principal, fileId);
    }
    const upload = found ? await this.#prolong(found, file) : await this.#begin(file, length);
    const expiresInSeconds = this.#urlSeconds(upload);
    const parts = await this.#o.partials.presignParts(toPartialBlob(upload), { expiresInSeconds });
    return { ...parts, expiresAt: upload.expiresAt };
  }

  /**
   * One raw S3 request on the file's live upload, presigned until the upload expires (Uppy's
   * `@uppy/aws-s3` sends it itself): only on the upload the client names by `uploadId`
   * (UPLOAD_NOT_FOUND for any other), and a part only of the upload's layout.
   */
  async presign(
    principal: Principal,
    fileId: string,
    request: DirectRequest & { uploadId: string },
  ): Promise<string> {
    const upload = await this.#getLive(principal, fileId);
    if (upload.state === 'committed') throw uploadFinished();
    const expiresInSeconds = this.#urlSeconds(upload);
    const presigned = await this.#o.partials.presignRequest(toPartialBlob(upload), request, {
      expiresInSeconds,
    });
    if (presigned.uploadId !== request.uploadId) throw uploadNotFound();
    if (request.operation === 'UploadPart' && request.partNumber > presigned.partCount)
      throw validationFailed(
        `partNumber ${request.partNumber} is past the upload's last part (${presigned.partCount})`,
      );
    return presigned.url;
  }

  /**
   * The store's id of the file's live upload, or undefined: no access check, for a caller that
   * holds a signed link for the file. The store tells it as it presigns (no request to S3).
   */
  async findUploadId(fileId: string): Promise<string | undefined> {
    const upload = await this.#o.uploads.findById(toUploadId(fileId));
    if (!upload || upload.state === 'committed' || upload.expiresAt <= this.#o.clock.now()) return undefined;
    const blob = toPartialBlob(upload);
    const listing = { operation: 'ListParts' } as const;
    return (await this.#o.partials.presignRequest(blob, listing, { expiresInSeconds: 1 })).uploadId;
  }

  /** The parts the store holds so far. */
  async listParts(principal: Principal, fileId: string): Promise<DirectParts<StoredPart>> {
    const upload = await this.#getLive(principal, fileId);
    if (upload.state === 'committed') throw uploadFinished();
    const listed = await this.#o.partials.listParts(toPartialBlob(upload));
    if (!listed) throw uploadNotFound();
    return listed;
  }

  /**
   * Publishes the parts as the file's upload once they are exactly the client's, and commits
   * them as a PUT does (declared length, type and SHA-256, read back); answers the quoted ETag
   * for verify. Idempotent: a repeat answers the same ETag, and a commit that failed (store or
   * database down) is retried.
   */
  async complete(principal: Principal, fileId: string, claimed: readonly ClaimedPart[]): Promise<string> {
    const { id, state, etag } = await this.#getLive(principal, fileId);
    if (state === 'committed' && etag) return etag; // a repeat: no need to wait for a lease
    return this.#leases.withLease(id, async (owner) => {
      // Read again under the lease: a complete or abort may have finished meanwhile.
      const upload = await this.#o.uploads.findById(id);
      if (!upload) throw uploadNotFound();
      if (upload.state === 'committed' && upload.etag) return upload.etag;
      const blob = toPartialBlob(upload);
      const listed = await this.#o.partials.listParts(blob);
      if (listed) assertPartsMatch(upload.length, listed, claimed);
      // Gone from the store without being checked here first: aborted behind Coffer's back.
      else if (upload.offset < upload.length) throw uploadNotFound();
      // The offset says what it says for tus: every byte is in the store.
      const move = { from: upload.offset, to: upload.length, expiresAt: upload.expiresAt };
      if (upload.offset < upload.length && !(await this.#o.uploads.advance(id, owner, move)))
        throw uploadLocked(1);
      return commitResumable(this.#o, { ...upload, offset: upload.length }, blob, undefined);
    });
  }

  /** Aborts the upload: its parts, its row, and its record's reservation if it never took an upload. */
  async abort(principal: Principal, fileId: string): Promise<void> {
    const { id } = await this.#getLive(principal, fileId);
    await this.#leases.withLease(id, async () => {
      const upload = await this.#o.uploads.findById(id);
      if (!upload) throw uploadNotFound();
      if (upload.state === 'committed') throw uploadFinished();
      await this.#o.resumableUploads.discard(upload);
    });
  }

  /** Until the upload expires, within SigV4's week. */
  #urlSeconds(upload: ResumableUpload): number {
    const secondsLeft = Math.ceil((upload.expiresAt.getTime() - this.#o.clock.now().getTime()) / 1000);
    return Math.max(1, Math.min(maxUrlSeconds, secondsLeft));
  }

  /** The declared length a parallel upload of this record fills. */
  #assertUploadable(file: FileRecord): number {
    if (file.verified) throw alreadyVerified();
    const length = file.declared.sizeBytes;
    if (length === null)
      throw validationFailed(
        'A parallel upload needs the contentLength declared when the upload was requested',
      );
    if (file.uploadExpiresAt <= toUnixSeconds(this.#o.clock.now()))
      throw validationFailed("The file's upload request has expired (its putFileUrl too): request it again");
    return length;
  }

  async #begin(file: FileRecord, length: number): Promise<ResumableUpload> {
    const now = this.#o.clock.now();
    const expiresAt = this.#expiry(now, now, file);
    const upload = await beginPartialUpload(this.#o, file, {
      id: toUploadId(file.id),
      length,
      now,
      expiresAt,
    });
    try {
      await this.#o.uploads.create(upload);
      return upload;
    } catch (error) {
      // Another request started the file's upload first (the row's id is the file's): use it.
      await this.#o.partials.abort(toPartialBlob(upload)).catch(() => {});
      const first = await this.#o.uploads.findById(upload.id);
      if (first?.state !== 'receiving') throw error;
      return first;
    }
  }

  /** Moves the upload's expiry on, as an accepted chunk moves a tus upload's. */
  #prolong(upload: ResumableUpload, file: FileRecord): Promise<ResumableUpload> {
    return this.#leases.withLease(upload.id, async (owner) => {
      const expiresAt = this.#expiry(this.#o.clock.now(), upload.createdAt, file);
      const move = { from: upload.offset, to: upload.offset, expiresAt };
      if (!(await this.#o.uploads.advance(upload.id, owner, move))) throw uploadLocked(1);
      return { ...upload, expiresAt };
    });
  }

  /**
   * A day (by default) from now, never past the upload's maximum age, nor past the record's
   * own upload deadline, after which the record is swept or replaced.
   */
  #expiry(now: Date, createdAt: Date, file: FileRecord): Date {
    const sliding = now.getTime() + this.#o.expirySeconds * 1000;
    const oldest = createdAt.getTime() + this.#o.maxAgeSeconds * 1000;
    return new Date(Math.min(sliding, oldest, file.uploadExpiresAt * 1000));
  }

  /** The file's upload, if the caller may manage the file and the upload has not expired. */
  async #getLive(principal: Principal, fileId: string): Promise<ResumableUpload> {
    const file = await getAccessibleFile(this.#o.files, principal, fileId, 'manage');
    const upload = await this.#o.uploads.findById(toUploadId(file.id));
    if (!upload || upload.expiresAt <= this.#o.clock.now()) throw uploadNotFound();
    return upload;
  }
}

/**
 * One parallel upload per file at a time, so its row's id follows from the file's (the
 * primary key settles two starts racing). Never a tus URL's upload id: those are random
 * (newId, no dot) and signed, and no link is ever signed for this one.
 */
function toUploadId(fileId: string): string {
  return `${fileId}.multipart`;
}
