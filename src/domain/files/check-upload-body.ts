import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ContentCheckStream } from './content-check-stream.ts';
import { toContentType } from './content-type.ts';
import type { FileRecord } from './file-record.ts';
import type { HashThread } from './hash-thread.ts';
import { peekStart } from './peek-start.ts';
import { sniffContentType, sniffSampleBytes } from './sniff-content-type.ts';
import { assertDeclaredType } from './upload-contract.ts';
import type { UploadLimits } from './upload-limits.ts';

/** What the sender said of a body before sending it: its type, and its length if known. */
export type SentBody = { contentType: string | undefined; sizeBytes?: number | undefined };

/**
 * Issue 10: an upload's body as it goes to the store, held to what its request declared
 * (CONTENT_MISMATCH), to the project's size, types and quotas (cut off at the first byte too
 * many, nothing kept), its type told by its first bytes when the client names none, and its
 * SHA-256 computed on the way (`check.checksumSha256` once the store has read it all).
 * `sizeBytes` is its length where the sender or the upload request said it beforehand: the
 * check fails a body of another length before the store sees its end.
 */
export async function checkUploadBody(
  options: { limits: UploadLimits; hashes: HashThread },
  file: FileRecord,
  body: Readable,
  sent: SentBody,
  /** The malware scanner's tap (issue 42): the same read of the body feeds it. */
  tap?: Transform,
): Promise<{ contentType: string; check: ContentCheckStream; sizeBytes: number | undefined }> {
  const { declared } = file;
  const sentContentType = sent.contentType;
  assertDeclaredType(declared.contentType, sentContentType);
  const owner = { projectId: file.projectId, userId: file.creatorId };
  const countedBytes = file.pendingUpload?.sizeBytes ?? declared.sizeBytes ?? 0;
  const limits = await options.limits.streamingLimits(owner, countedBytes);
  // A sample no larger than the first byte too many: a body over a limit is refused as soon
  // as that byte arrives, not after a sample a slow client may never finish sending.
  const sampleBytes = Math.min(sniffSampleBytes, ...limits.map((limit) => limit.maxBytes + 1));
  const { head, body: whole } = await peekStart(body, sampleBytes);
  const sniffed = await sniffContentType(head);
  const contentType = toContentType(
    sentContentType || (declared.contentType ?? undefined),
    file.filePath,
    sniffed,
  );
  await options.limits.assertTypeAllowed(file.projectId, contentType);
  // security: bytes that tell another type (HTML labelled image/png) must be allowed too.
  if (sniffed) await options.limits.assertTypeAllowed(file.projectId, sniffed);
  const check = new ContentCheckStream({
    declared,
    limits,
    sha256: options.hashes.open(),
  });
  // The check's own failure reaches the store through the stream; this only stops a rejection going unheard.
  (tap ? pipeline(whole, tap, check) : pipeline(whole, check)).catch(() => {});
  return { contentType, check, sizeBytes: sent.sizeBytes ?? declared.sizeBytes ?? undefined };
}
