import { Upload, type UploadOptions } from 'tus-js-client';

export type TusOutcome =
  | { ok: true; etag: string | undefined; url: string | null }
  | { ok: false; error: Error };

/**
 * Runs one tus-js-client upload (the stock client) of `body` to the end and answers how it
 * ended: the last response's ETag on success, the error otherwise (retries off unless asked).
 */
export function runTusUpload(body: Buffer, options: UploadOptions): Promise<TusOutcome> {
  return new Promise((resolve) => {
    const upload: Upload = new Upload(body, {
      retryDelays: null,
      ...options,
      onSuccess: ({ lastResponse }) =>
        resolve({ ok: true, etag: lastResponse.getHeader('ETag'), url: upload.url }),
      onError: (error) => resolve({ ok: false, error }),
    });
    upload.start();
  });
}
