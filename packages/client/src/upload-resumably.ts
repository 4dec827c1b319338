import { CofferError } from './errors.ts';
import { type ResumableSendOptions, sendResumable } from './resumable-upload.ts';
import { isResumeState, type ResumeState, type ResumeStore } from './resume-store.ts';
import { headUpload } from './tus-requests.ts';
import type { ByteSource } from './upload-body.ts';

/** The control-plane calls a resumable upload makes, as the logged-in user. */
export type ResumableCalls<FileRecord> = {
  /**
   * POST /api/v1/file with `resumable: true` and the body's length: a record and its upload
   * URL; `resumed` when the server answers an unfinished upload of the same path and contract.
   */
  requestResumable(
    contentLength: number,
  ): Promise<{ fileId: string; resumableUrl?: string; resumed?: boolean }>;
  verify(fileId: string, etag: string): Promise<FileRecord>;
  /** GET /api/v1/file/:id: FILE_NOT_VERIFIED while the record waits for its content. */
  get(fileId: string): Promise<unknown>;
  delete(fileId: string): Promise<void>;
};

export type StoredUploadOptions = ResumableSendOptions & { store: ResumeStore; key: string };

/**
 * The resumable path of `upload()`: goes on with the upload the store remembers for this
 * key, if its URL is still live, else starts one (and remembers it before the first byte);
 * verifies once the server holds every byte, then forgets it. An upload URL that is gone
 * (expired, revoked, its file deleted) starts a fresh upload, once.
 */
export async function uploadResumably<FileRecord>(
  calls: ResumableCalls<FileRecord>,
  source: ByteSource,
  options: StoredUploadOptions,
): Promise<FileRecord> {
  const { store, key } = options;
  let upload = (await recall(store, key)) ?? (await start(calls, source, options));
  for (let restarted = false; ; restarted = true) {
    try {
      const record = await finishUpload(calls, upload, source, options);
      await forget(store, key);
      return record;
    } catch (error) {
      if (restarted || !isUploadGone(error)) throw error;
      await forget(store, key);
      await discardUnverified(calls, upload.fileId).catch(() => {});
      upload = await start(calls, source, options);
    }
  }
}

/** Sends what the server lacks of a known upload, then verifies it: the readable record. */
export async function finishUpload<FileRecord>(
  calls: Pick<ResumableCalls<FileRecord>, 'verify'>,
  upload: { fileId: string; resumableUrl: string },
  source: ByteSource,
  options: ResumableSendOptions,
): Promise<FileRecord> {
  const etag = await sendResumable(upload.resumableUrl, source, options);
  return calls.verify(upload.fileId, etag);
}

async function start<FileRecord>(
  calls: ResumableCalls<FileRecord>,
  source: ByteSource,
  options: StoredUploadOptions,
): Promise<ResumeState> {
  const ticket = await calls.requestResumable(source.sizeBytes);
  if (!ticket.resumableUrl) throw new TypeError('The server answered no resumableUrl');
  if (ticket.resumed) await assertNothingSent(ticket.resumableUrl, options);
  const state = {
    fileId: ticket.fileId,
    resumableUrl: ticket.resumableUrl,
    createdAt: Math.floor(Date.now() / 1000),
  };
  await remember(options.store, options.key, state);
  return state;
}

/**
 * Deletes the record of an upload that is gone if it still waits for its content: it holds
 * the path (a new upload there would be FILE_EXISTS) and its reservation. Never a verified one.
 */
async function discardUnverified(calls: ResumableCalls<unknown>, fileId: string): Promise<void> {
  const waiting = await calls.get(fileId).then(
    () => false,
    (error: CofferError) => error.code === 'FILE_NOT_VERIFIED',
  );
  if (waiting) await calls.delete(fileId);
}

/**
 * An unfinished upload the server remembers but this store does not (its state was lost, or
 * it holds other bytes of the same length and type): taken over only while it holds no byte.
 * Bytes it holds may be another body's; appending to them would verify a mix of two. Apps that
 * know their content's SHA-256 declare it, and the server answers only uploads of that content.
 */
async function assertNothingSent(resumableUrl: string, options: StoredUploadOptions): Promise<void> {
  const answer = await headUpload(resumableUrl, options);
  if ('status' in answer && answer.status.offset === 0) return;
  throw new CofferError(
    409,
    'FILE_EXISTS',
    'An unfinished upload to this path holds bytes this client did not send (its resume state is elsewhere)',
  );
}

function isUploadGone(error: unknown): boolean {
  const code = (error as CofferError | undefined)?.code;
  // UPLOAD_REPLACED (410): a later PUT replaced the finished upload's bytes before verify.
  return code === 'UPLOAD_NOT_FOUND' || code === 'UPLOAD_LENGTH_MISMATCH' || code === 'UPLOAD_REPLACED';
}

// A store that fails costs only the resume after a reload, never the upload itself.

async function recall(store: ResumeStore, key: string): Promise<ResumeState | undefined> {
  try {
    const state: unknown = await store.get(key);
    return isResumeState(state) ? state : undefined;
  } catch {
    return undefined;
  }
}

async function remember(store: ResumeStore, key: string, state: ResumeState): Promise<void> {
  try {
    await store.set(key, state);
  } catch {
    // full or refused: this upload still goes on, it just cannot outlive the page
  }
}

async function forget(store: ResumeStore, key: string): Promise<void> {
  try {
    await store.delete(key);
  } catch {
    // a stale state is harmless: its URL answers 404 and the next upload starts afresh
  }
}
