import { CofferError } from './errors.ts';
import { toProgressReport } from './progress-report.ts';
import { isRetryable, retryDelayMs, wait } from './retry-policy.ts';
import { headUpload, patchChunk, type TusAnswer, type UploadStatus } from './tus-requests.ts';
import type { ByteSource, UploadProgress } from './upload-body.ts';

export type ResumableSendOptions = {
  chunkSizeBytes: number;
  /** How many failures in a row (no byte gained meanwhile) are tried again before giving up. */
  retries: number;
  onProgress?: (progress: UploadProgress) => void;
  /** Told once, before any progress, of the bytes the server already held when this call began. */
  onResume?: (offsetBytes: number) => void;
  signal?: AbortSignal;
  fetch: typeof fetch;
};

/**
 * tus 1.0 as a client: HEAD for the offset, then a PATCH per chunk from there until the
 * server holds every byte; answers the ETag that the completing PATCH (or a HEAD, once the
 * upload is committed) gives, to verify with. No answer, a 5xx or a 423 is tried again after
 * a pause (Retry-After when the server names one), then the offset is asked again: a cut chunk
 * leaves the bytes that arrived on the server. A 409 means the offset moved under us (a cut
 * request the server finished meanwhile): asked again at once.
 */
export async function sendResumable(
  url: string,
  source: ByteSource,
  options: ResumableSendOptions,
): Promise<string> {
  const totalBytes = source.sizeBytes;
  const progress = toProgressReport(totalBytes, options.onProgress);
  const report = progress.sent;
  let known: UploadStatus | undefined; // the server's status, when its last answer told it
  let heldBytes = -1; // the most the server has said it holds
  let failures = 0;
  for (;;) {
    const patched = known !== undefined;
    const answer: TusAnswer = known
      ? await sendChunk(url, source, known.offset, { ...options, report })
      : await headUpload(url, options);
    let failure: { error: CofferError; retryAfter?: string | null };
    if ('status' in answer) {
      known = answer.status;
      if (heldBytes < 0) begin(known, totalBytes, options, report);
      assertWithin(known, totalBytes);
      if (known.offset === totalBytes && known.etag) {
        progress.done();
        return known.etag;
      }
      if (known.offset > heldBytes) {
        heldBytes = known.offset;
        failures = 0;
        continue;
      }
      if (!patched) continue;
      // Only a commit retry (a zero-length PATCH at the length) answers without moving on;
      // without an ETag, the commit failed again.
      failure = {
        error: new CofferError(500, 'UPLOAD_NOT_COMMITTED', 'The upload has every byte but no ETag'),
      };
    } else failure = answer;
    known = undefined; // asked again: a cut or refused chunk may have left some bytes
    const { error } = failure;
    if (!(isRetryable(error) || error.status === 409) || ++failures > options.retries) throw error;
    if (error.status !== 409) await wait(retryDelayMs(failures, failure.retryAfter), options.signal);
  }
}

function sendChunk(
  url: string,
  source: ByteSource,
  offset: number,
  options: ResumableSendOptions & { report: (loadedBytes: number) => void },
): Promise<TusAnswer> {
  const end = Math.min(offset + options.chunkSizeBytes, source.sizeBytes);
  return patchChunk(
    url,
    { offset, bytes: source.slice(offset, end) },
    { ...options, onSent: (sentBytes) => options.report(offset + sentBytes) },
  );
}

/** The first answer: is this upload of this body, and where does it start. */
function begin(
  status: UploadStatus,
  totalBytes: number,
  options: ResumableSendOptions,
  report: (loadedBytes: number) => void,
): void {
  if (status.length !== undefined && status.length !== totalBytes)
    throw new CofferError(
      409,
      'UPLOAD_LENGTH_MISMATCH',
      `The upload is ${status.length} bytes long, the body ${totalBytes}`,
    );
  if (status.offset > 0) options.onResume?.(status.offset);
  report(status.offset);
}

function assertWithin(status: UploadStatus, totalBytes: number): void {
  if (status.offset > totalBytes)
    throw new CofferError(409, 'UPLOAD_LENGTH_MISMATCH', `The server holds more bytes than the body has`);
}
