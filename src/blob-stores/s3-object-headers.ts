import type { BlobInfo } from '../domain/blobs/blob-store.ts';

/** The headers of a HeadObject or GetObject answer that say what a version holds. */
type ObjectHeaders = { ContentLength?: number; LastModified?: Date };

/**
 * The SHA-256 of the whole object, when the store reports one: a multipart object's is a
 * checksum of its parts' checksums (`…-3`, ChecksumType COMPOSITE), which says nothing of the whole.
 */
export function toFullObjectSha256(headers: {
  ChecksumSHA256?: string;
  ChecksumType?: string;
}): string | undefined {
  const reported = headers.ChecksumSHA256;
  if (!reported || headers.ChecksumType === 'COMPOSITE' || reported.includes('-')) return undefined;
  return reported;
}

export function toBlobInfo(headers: ObjectHeaders): BlobInfo {
  return { sizeBytes: headers.ContentLength ?? 0, lastModified: headers.LastModified ?? new Date(0) };
}
