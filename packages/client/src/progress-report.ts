import type { UploadProgress } from './upload-body.ts';

/** What an upload reports as it goes: bytes sent, then the wait for the answer, then done. */
export type ProgressReport = {
  /** `loadedBytes` of the body have gone out (never goes back: a chunk sent again counts once). */
  sent(loadedBytes: number): void;
  /** The server answered with the ETag: the upload is done. */
  done(): void;
};

/**
 * Progress that reaches 100 % only when the upload is done (issue 35): once every byte has gone
 * out, the server still writes, hashes and commits them (a large file's last chunk), so until
 * its answer the phase is `finishing` and `loadedBytes` stays one byte short of the total.
 */
export function toProgressReport(
  totalBytes: number,
  onProgress?: (progress: UploadProgress) => void,
): ProgressReport {
  let reported = -1;
  let finishing = false;
  return {
    sent(loadedBytes) {
      const allSent = loadedBytes >= totalBytes;
      const shown = Math.max(0, Math.min(loadedBytes, totalBytes - 1));
      if (shown <= reported && (!allSent || finishing)) return;
      reported = Math.max(reported, shown);
      finishing = allSent;
      onProgress?.({ loadedBytes: reported, totalBytes, phase: allSent ? 'finishing' : 'sending' });
    },
    done() {
      onProgress?.({ loadedBytes: totalBytes, totalBytes, phase: 'done' });
    },
  };
}
