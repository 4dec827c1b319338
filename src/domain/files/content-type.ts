import mime from 'mime-types';

const fallback = 'application/octet-stream';

/**
 * DESIGN §3: the content type comes from the upload (multipart part type or PUT Content-Type),
 * falling back to the file extension, then to application/octet-stream.
 */
export function toContentType(declared: string | undefined, filePath: string): string {
  const trimmed = declared?.trim();
  if (trimmed && /^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(trimmed) && trimmed.length <= 255) return trimmed;
  return mime.lookup(filePath) || fallback;
}
