/**
 * An RFC 6266 `attachment` disposition carrying the file name: an ASCII fallback for old
 * clients and the exact UTF-8 name (RFC 5987) for the rest. Attachment, not inline: the
 * content is the users', and must not run as a page on this origin.
 */
export function toContentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
