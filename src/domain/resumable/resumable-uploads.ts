import { Readable } from 'node:stream';
import { isAppError } from '../../errors/app-error.ts';
import { uploadFinished, uploadNotFound, uploadOffsetConflict, uploadReplaced } from '../../errors/errors.ts';
import { toUnixSeconds } from '../clock.ts';
import type { FileRecord } from '../files/file-record.ts';
import type { GatewayLink } from '../files/get-linked-file.ts';
import { newId } from '../ids.ts';
import type { IssuedLink } from '../links/link-issuer.ts';
import { type AppendOptions, appendChunk, type Chunk } from './append-chunk.ts';
import { beginPartialUpload } from './begin-partial-upload.ts';
import { committedEtag } from './commit-resumable.ts';
import { type ResumableUpload, toPartialBlob } from './resumable-upload.ts';
import { RunningDigests } from './running-digests.ts';
import { UploadLeases } from './upload-lease.ts';

export type ResumableUploadsOptions = AppendOptions & {
  users: { findById(projectId: string, id: string): Promise<{ enabled: boolean } | undefined> };
  /** A fresh blob version name (the blob stores' naming). */
  newBlobVersion: () => string;
  /** How long an upload stays resumable after its last accepted byte (default a day). */
  expirySeconds: number;
  /** No upload lives longer than this from its creation; its URL expires then. */
  maxAgeSeconds: number;
};

/**
 * What a HEAD (and every answer) tells of an upload, with the record it goes to and whether
 * its link asked for a verify on the last byte (issue 43: auto-verify.ts reads these).
 */
export type UploadStatus = {
  offset: number;
  length: number;
  expiresAt: Date;
  etag?: string;
  target: Pick<ResumableUpload, 'fileId' | 'projectId' | 'creatorId'>;
  verifyAsked: boolean;
};

/** How a resumable link was signed: `resume-verify` links verify on the last byte. */
type Signed = { upload: ResumableUpload; verifyAsked: boolean };

/**
 * Resumable uploads (issue 20, tus 1.0 over Coffer's upload contract): created for a file
 * record by the upload request, then fed by PATCHes to a signed URL, and committed to the
 * record when the last byte arrives, as a PUT to putFileUrl is.
 */
export class ResumableUploads {
  readonly #o: ResumableUploadsOptions;
  readonly #leases: UploadLeases;
  readonly #digests: RunningDigests;

  constructor(options: ResumableUploadsOptions) {
    this.#o = options;
    this.#leases = new UploadLeases({
      uploads: options.uploads,
      clock: options.clock,
      ...(options.leaseHolders && { holders: options.leaseHolders }),
    });
    this.#digests = new RunningDigests(options.hashes);
  }

  /**
   * A new upload of the record's declared length, and its URL. The record's own upload
   * deadline must already reach `uploadDeadline(now)`, or the unverified sweeper would take it.
   */
  async begin(file: FileRecord, verify = false): Promise<{ upload: ResumableUpload; url: IssuedLink }> {
    const length = file.declared.sizeBytes;
    if (length === null) throw new TypeError('a resumable upload needs a declared length');
    const now = this.#o.clock.now();
    const expiresAt = this.#expiryAfterByte(now, now);
    const upload = await beginPartialUpload(this.#o, file, { id: newId(), length, now, expiresAt });
    await this.#o.uploads.create(upload);
    const deadline = this.uploadDeadline(now);
    const url = await this.#o.links.issueResumable(upload.id, deadline, file.linksGeneration, verify);
    // tus: an upload of length 0 is complete once created (clients send no PATCH for it).
    if (length === 0) return { upload: await this.#commitEmpty(upload, file), url };
    return { upload, url };
  }

  #commitEmpty(upload: ResumableUpload, file: FileRecord): Promise<ResumableUpload> {
    return this.#leases.withLease(upload.id, (owner, signal) =>
      appendChunk(
        this.#o,
        this.#digests,
        { upload, file, owner },
        { offset: 0, body: Readable.from([]) },
        {
          signal,
          expiresAt: upload.expiresAt,
        },
      ),
    );
  }

  /**
   * The file's upload still receiving bytes, with its URL signed again (the same upload, the
   * same deadline), while it may go on; undefined otherwise (issue 35, item 6).
   */
  async findUnfinished(file: FileRecord): Promise<{ upload: ResumableUpload; url: IssuedLink } | undefined> {
    const upload = await this.#o.uploads.findReceivingByFileId(file.id);
    if (!upload || upload.expiresAt <= this.#o.clock.now()) return undefined;
    const deadline = this.uploadDeadline(upload.createdAt);
    return { upload, url: await this.#o.links.issueResumable(upload.id, deadline, file.linksGeneration) };
  }

  /** Unix seconds: when an upload created now stops for good (its URL's expiry). */
  uploadDeadline(now: Date): number {
    return toUnixSeconds(now) + this.#o.maxAgeSeconds;
  }

  /**
   * tus HEAD. An upload whose bytes are all kept but not committed (its last PATCH failed
   * after the last byte) is committed first, when no one else is writing: a tus client that
   * sees the full offset calls the upload done without another PATCH, and needs the ETag.
   */
  async status(link: GatewayLink): Promise<UploadStatus> {
    const { upload, file, verifyAsked } = await this.#getLive(link);
    if (upload.state === 'committed') return toCommittedStatus(upload, file, verifyAsked);
    if (upload.offset < upload.length) return toStatus(upload, verifyAsked);
    return this.append(link, { offset: upload.length, body: Readable.from([]) }).catch(() =>
      toStatus(upload, verifyAsked),
    );
  }

  /**
   * tus PATCH: the chunk at `offset`, which must be the upload's (else UPLOAD_OFFSET_CONFLICT,
   * nothing written). The PATCH that reaches the length commits; a zero-length one at the
   * length retries a commit that failed.
   */
  async append(link: GatewayLink, chunk: Chunk): Promise<UploadStatus> {
    // The offset is checked before the lease (a stale chunk never disturbs a writer); the file
    // and the creator once, under it.
    const { upload, verifyAsked } = await this.#findSigned(link);
    if (upload.state === 'committed') {
      const { file } = await this.#getLive(link);
      return repeatOfCommitted(upload, file, chunk.offset, verifyAsked);
    }
    if (chunk.offset !== upload.offset) throw uploadOffsetConflict(upload.offset);
    return this.#leases.withLease(upload.id, async (owner, signal, touch) => {
      // Read again under the lease: another writer may have moved it meanwhile.
      const { upload: current, file } = await this.#getLive(link);
      if (current.state === 'committed') return repeatOfCommitted(current, file, chunk.offset, verifyAsked);
      if (chunk.offset !== current.offset) throw uploadOffsetConflict(current.offset);
      const moved = await appendChunk(this.#o, this.#digests, { upload: current, file, owner }, chunk, {
        signal,
        touch,
        expiresAt: this.#expiryAfterByte(this.#o.clock.now(), current.createdAt),
      });
      return toStatus(moved, verifyAsked);
    });
  }

  /** tus DELETE: an unfinished upload goes, with its bytes and its record's reservation. */
  async terminate(link: GatewayLink): Promise<void> {
    const { upload } = await this.#getLive(link);
    if (upload.state === 'committed') throw uploadFinished();
    await this.#leases.withLease(upload.id, async () => {
      await this.discard(upload);
    });
  }

  /** Removes an unfinished upload: its bytes, its row, and its record if nothing else came of it. */
  async discard(upload: ResumableUpload): Promise<void> {
    this.#digests.forget(upload.id);
    await this.#o.partials.abort(toPartialBlob(upload));
    await this.#o.uploads.delete(upload.id);
    await this.#o.targets.deleteIfNeverUploaded(upload.fileId);
  }

  /**
   * Removes uploads whose expiry has passed (a page of at most `limit`): an unfinished one's
   * bytes, row and reservation, a committed one's row. Answers how many went; an upload being
   * written to (its lease held) or a store that fails waits for the next pass.
   */
  async sweepExpired(limit: number): Promise<number> {
    let removed = 0;
    for (const listed of await this.#o.uploads.listExpired(this.#o.clock.now(), limit)) {
      const gone = await this.#leases
        .withLease(listed.id, async () => {
          // Read again under the lease: a chunk may have arrived and moved its expiry on.
          const upload = await this.#o.uploads.findById(listed.id);
          if (!upload || upload.expiresAt > this.#o.clock.now()) return false;
          if (upload.state === 'receiving') await this.discard(upload);
          else await this.#o.uploads.delete(upload.id);
          return true;
        })
        .catch(() => false);
      if (gone) removed += 1;
    }
    return removed;
  }

  close(): void {
    this.#digests.close();
  }

  /**
   * The upload a link names, while it may still be used; UPLOAD_NOT_FOUND for anything else
   * (security: the same answer for a bad signature, an expired link or upload, a deleted file,
   * revoked links and a disabled creator, so the URL cannot be probed).
   */
  async #getLive(link: GatewayLink): Promise<Signed & { file: FileRecord }> {
    const { upload, verifyAsked } = await this.#findSigned(link);
    const file = await this.#o.targets.findById(upload.fileId);
    if (!file || file.linksGeneration !== (link.generation ?? 0)) throw uploadNotFound();
    const creator = await this.#o.users.findById(upload.projectId, upload.creatorId);
    if (!creator?.enabled) throw uploadNotFound();
    return { upload, file, verifyAsked };
  }

  /** The upload a well-signed, unexpired link names; its file and creator are #getLive's to check. */
  async #findSigned(link: GatewayLink): Promise<Signed> {
    const now = this.#o.clock.now();
    const verifyAsked = await this.#signedVerify(link, toUnixSeconds(now));
    const upload = await this.#o.uploads.findById(link.fileId);
    if (!upload || upload.expiresAt <= now) throw uploadNotFound();
    return { upload, verifyAsked };
  }

  /** Whether the link is a `resume-verify` one; UPLOAD_NOT_FOUND when it is neither kind. */
  async #signedVerify(link: GatewayLink, nowSeconds: number): Promise<boolean> {
    for (const operation of ['resume', 'resume-verify'] as const) {
      const claims = {
        operation,
        fileId: link.fileId,
        expiresAt: link.expiresAt,
        generation: link.generation,
      };
      const valid = await this.#o.links.assertGatewayLink(claims, link, nowSeconds).then(
        () => true,
        (error: unknown) => {
          if (isAppError(error) && error.statusCode < 500) return false;
          throw error;
        },
      );
      if (valid) return operation === 'resume-verify';
    }
    throw uploadNotFound();
  }

  /** A day (by default) after the last accepted byte, never past the upload's maximum age. */
  #expiryAfterByte(now: Date, createdAt: Date): Date {
    const sliding = now.getTime() + this.#o.expirySeconds * 1000;
    return new Date(Math.min(sliding, createdAt.getTime() + this.#o.maxAgeSeconds * 1000));
  }
}

function toStatus(upload: ResumableUpload, verifyAsked: boolean): UploadStatus {
  const { offset, length, expiresAt, fileId, projectId, creatorId } = upload;
  const status = { offset, length, expiresAt, target: { fileId, projectId, creatorId }, verifyAsked };
  return upload.etag ? { ...status, etag: upload.etag } : status;
}

/** A committed upload takes no more bytes; a repeat of its last PATCH answers as HEAD does. */
function repeatOfCommitted(
  upload: ResumableUpload,
  file: FileRecord,
  offset: number,
  verifyAsked: boolean,
): UploadStatus {
  const status = toCommittedStatus(upload, file, verifyAsked);
  if (offset !== upload.length) throw uploadOffsetConflict(upload.length);
  return status;
}

/**
 * A committed upload as the file now holds it (issue 35, item 7): the ETag of the file's
 * current content while that is still this upload's version (verify may have pinned it), or
 * UPLOAD_REPLACED once a later PUT committed other bytes: never the ETag the commit answered.
 */
function toCommittedStatus(upload: ResumableUpload, file: FileRecord, verifyAsked: boolean): UploadStatus {
  const etag = committedEtag(file, upload);
  if (!etag) throw uploadReplaced();
  return { ...toStatus(upload, verifyAsked), etag };
}
