import mime from 'mime-types';

const fallback = 'application/octet-stream';

/**
 * DESIGN §3 and issue 10, item 7: the content type comes from the upload (multipart part type,
 * PUT Content-Type, or the type its request declared); when the client names none or only
 * application/octet-stream, from what the first bytes tell (`sniffed`), then from the file
 * extension, then application/octet-stream.
 */
export function toContentType(declared: string | undefined, filePath: string, sniffed?: string): string {
  const trimmed = declared?.trim();
  const named =
    trimmed && /^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(trimmed) && trimmed.length <= 255 ? trimmed : undefined;
  if (named && named.split(';', 1)[0]!.trim().toLowerCase() !== fallback) return named;
  return sniffed ?? (mime.lookup(filePath) || fallback);
}
