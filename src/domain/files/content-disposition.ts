/**
 * `attachment; filename="<ascii fallback>"; filename*=UTF-8''<pct-encoded>` (RFC 6266 §4.3):
 * browsers that know RFC 5987 use filename*, older ones the quoted ASCII name.
 */
export function toAttachmentDisposition(fileName: string): string {
  // Attachment, not inline: the content is the users' and must not run as a page on this origin.
  return toDisposition('attachment', fileName);
}

/** The same, inline: only for the console's preview of types that cannot run (its own rules). */
export function toInlineDisposition(fileName: string): string {
  return toDisposition('inline', fileName);
}

function toDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  // security: quotes, backslashes and control characters (CR/LF) never reach the header; nor
  // does %, which some browsers percent-decode in the fallback.
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${toRfc5987Value(fileName)}`;
}

// RFC 5987 §3.2.1 attr-char leaves only ALPHA DIGIT !#$&+-.^_`|~ unencoded; encodeURIComponent
// also leaves '()* alone, so those are encoded here.
function toRfc5987Value(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
