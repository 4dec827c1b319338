import { contentMismatch, validationFailed } from '../../errors/errors.ts';
import type { DirectParts, StoredPart } from './partial-blob-store.ts';

/** A part as the client names it at completion: its number and the ETag S3 answered its PUT with. */
export type ClaimedPart = { partNumber: number; etag: string };

/**
 * Holds the parts the store has to the client's list before anything is published: the client
 * names each part 1…N of the layout once (in any order), and each part the store holds has its
 * fixed size and the ETag the client got for it. VALIDATION_FAILED for a list that is not the
 * layout's, CONTENT_MISMATCH naming the first part that differs; the upload stays, so the client
 * can send that part again and complete.
 */
export function assertPartsMatch(
  length: number,
  stored: DirectParts<StoredPart>,
  claimed: readonly ClaimedPart[],
): void {
  const { partSizeBytes } = stored;
  const count = Math.ceil(length / partSizeBytes);
  const sorted = [...claimed].sort((a, b) => a.partNumber - b.partNumber);
  if (sorted.length !== count || sorted.some((part, index) => part.partNumber !== index + 1))
    throw validationFailed(
      `parts must name each part from 1 to ${count} once: the upload's ${length} bytes are ${count} parts of ${partSizeBytes} bytes (the last holds the rest)`,
    );
  const held = new Map(stored.parts.map((part) => [part.partNumber, part]));
  for (const { partNumber, etag } of sorted) {
    const part = held.get(partNumber);
    const sizeBytes = Math.min(partSizeBytes, length - (partNumber - 1) * partSizeBytes);
    if (!part) throw contentMismatch(`part ${partNumber} was never uploaded`);
    if (part.sizeBytes !== sizeBytes)
      throw contentMismatch(`part ${partNumber} holds ${part.sizeBytes} bytes, not ${sizeBytes}`);
    if (unquoted(part.etag) !== unquoted(etag))
      throw contentMismatch(`part ${partNumber} has the ETag ${part.etag} in the store, not ${etag}`);
  }
}

/** ETags compared without their quotes: browsers and SDKs hand them on either way. */
function unquoted(etag: string): string {
  return etag.replace(/^"(.*)"$/, '$1');
}
