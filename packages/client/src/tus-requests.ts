import { CofferError, fromErrorText } from './errors.ts';
import { toNetworkError } from './retry-policy.ts';
import { sendBytes } from './send-bytes.ts';

/** What the server holds of an upload: tus's Upload-Offset and Upload-Length, and the ETag once committed. */
export type UploadStatus = { offset: number; length?: number; etag: string | null };

/** An answer, or why there is none to go on from (an abort is thrown, never answered). */
export type TusAnswer = { status: UploadStatus } | { error: CofferError; retryAfter: string | null };

export type TusRequestOptions = { signal?: AbortSignal; fetch: typeof fetch };

// tus 1.0: "The Tus-Resumable header MUST be included in every request and response except
// for OPTIONS requests."
const tusResumable = { 'tus-resumable': '1.0.0' };

/** tus HEAD: the offset to go on from. */
export async function headUpload(url: string, options: TusRequestOptions): Promise<TusAnswer> {
  try {
    const response = await options.fetch(url, {
      method: 'HEAD',
      headers: tusResumable,
      signal: options.signal,
    });
    return toAnswer(response.status, (name) => response.headers.get(name), '');
  } catch (error) {
    return toFailure(error, options.signal);
  }
}

/**
 * tus PATCH of the bytes at `offset`; answers the status the server moved to ("The Server
 * MUST acknowledge successful PATCH requests with the 204 No Content status").
 */
export async function patchChunk(
  url: string,
  chunk: { offset: number; bytes: Blob | Uint8Array },
  options: TusRequestOptions & { onSent?: (sentBytes: number) => void },
): Promise<TusAnswer> {
  try {
    const answer = await sendBytes(url, chunk.bytes, {
      method: 'PATCH',
      headers: {
        ...tusResumable,
        'upload-offset': String(chunk.offset),
        'content-type': 'application/offset+octet-stream',
      },
      onSent: options.onSent,
      signal: options.signal,
      fetch: options.fetch,
    });
    return toAnswer(answer.status, answer.header, answer.text);
  } catch (error) {
    return toFailure(error, options.signal);
  }
}

function toAnswer(status: number, header: (name: string) => string | null, text: string): TusAnswer {
  const retryAfter = header('retry-after');
  if (status === 404 || status === 410) {
    // security: the server answers every refused upload URL alike (expired, revoked, unknown).
    const error = new CofferError(status, 'UPLOAD_NOT_FOUND', 'The upload is gone (expired or revoked)');
    return { error, retryAfter };
  }
  if (status < 200 || status >= 300) return { error: fromErrorText(status, text), retryAfter };
  const offset = Number(header('upload-offset') ?? Number.NaN);
  if (!Number.isSafeInteger(offset)) {
    const error = new CofferError(status, `HTTP_${status}`, 'The upload URL answered without its offset');
    return { error, retryAfter };
  }
  // A PATCH's answer need not repeat the length (tus: only HEAD "MUST include" it).
  const length = header('upload-length');
  return { status: { offset, ...(length !== null && { length: Number(length) }), etag: header('etag') } };
}

function toFailure(error: unknown, signal: AbortSignal | undefined): TusAnswer {
  const failure = toNetworkError(error, 'The upload could not reach the server', signal);
  if (!(failure instanceof CofferError)) throw failure; // aborted
  return { error: failure, retryAfter: null };
}
