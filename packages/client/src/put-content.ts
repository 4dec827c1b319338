import { CofferError, fromErrorText } from './errors.ts';
import { toProgressReport } from './progress-report.ts';
import { retryDelayMs, toNetworkError, wait } from './retry-policy.ts';
import { sendBytes } from './send-bytes.ts';
import type { UploadBody, UploadProgress } from './upload-body.ts';

export type PutOptions = {
  contentType: string;
  onProgress?: (progress: UploadProgress) => void;
  /** How many times a failed PUT is tried again (network errors, 5xx), with backoff. */
  retries: number;
  signal?: AbortSignal;
  fetch: typeof fetch;
};

/**
 * PUTs the whole content to a signed upload link, again from the start after a network error
 * or a 5xx; answers the ETag to verify with.
 */
export async function putContent(url: string, body: UploadBody, options: PutOptions): Promise<string> {
  const blob = toBlob(body, options.contentType);
  const report = toProgressReport(blob.size, options.onProgress);
  for (let attempt = 1; ; attempt++) {
    let failure: CofferError;
    try {
      const put = await sendBytes(url, blob, {
        method: 'PUT',
        headers: { 'content-type': blob.type },
        onSent: report.sent,
        signal: options.signal,
        fetch: options.fetch,
      });
      const etag = put.header('etag');
      if (put.status >= 200 && put.status < 300 && etag) {
        report.done();
        return etag;
      }
      failure = fromErrorText(put.status, put.text);
    } catch (error) {
      const failed = toNetworkError(error, 'The upload could not reach the server', options.signal);
      if (!(failed instanceof CofferError)) throw failed; // aborted
      failure = failed;
    }
    // The link, the size or the content: trying again changes nothing.
    if (failure.status > 0 && failure.status < 500) throw failure;
    if (attempt > options.retries) throw failure;
    await wait(retryDelayMs(attempt), options.signal);
  }
}

function toBlob(body: UploadBody, contentType: string): Blob {
  if (body instanceof Blob) return body.type ? body : new Blob([body], { type: contentType });
  return new Blob([body as BlobPart], { type: contentType });
}
