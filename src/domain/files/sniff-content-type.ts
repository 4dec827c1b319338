import { fileTypeFromBuffer } from 'file-type';

/** How many first bytes detection looks at (file-type's own reasonable sample). */
export const sniffSampleBytes = 4100;

/**
 * The content type the first bytes tell: markup a browser would render (HTML, SVG, XML; the
 * WHATWG MIME Sniffing patterns, which file-type leaves aside as text), then the binary
 * signatures file-type knows (images, archives, media, PDF…); undefined when they tell none.
 */
export async function sniffContentType(head: Buffer): Promise<string | undefined> {
  return sniffMarkup(head) ?? (await fileTypeFromBuffer(head))?.mime;
}

// MIME Sniffing §7.1, "identifying a resource with an unknown MIME type": each pattern after
// optional whitespace, case-insensitive, followed by a space or `>` (the comment by either too).
const htmlTags = [
  '!doctype html',
  'html',
  'head',
  'script',
  'iframe',
  'h1',
  'div',
  'font',
  'table',
  'a',
  'style',
  'title',
  'b',
  'body',
  'br',
  'p',
  '!--',
];

function sniffMarkup(head: Buffer): string | undefined {
  const text = head
    .toString('latin1')
    .replace(/^\xef\xbb\xbf/, '')
    .replace(/^[\t\n\f\r ]+/, '')
    .toLowerCase();
  if (!text.startsWith('<')) return undefined;
  if (text.startsWith('<?xml')) return /<svg[\s>]/.test(text) ? 'image/svg+xml' : 'text/xml';
  if (/^<svg[\s>]/.test(text)) return 'image/svg+xml';
  const isTag = htmlTags.some(
    (tag) => text.startsWith(`<${tag}`) && /^[ >]/.test(text.charAt(tag.length + 1)),
  );
  return isTag ? 'text/html' : undefined;
}
