import { toEssence } from './upload-contract.ts';

/**
 * Types a browser may run as a page or a script on the origin that serves them: HTML and
 * XHTML, SVG, XML of any kind (an XML document can carry XHTML script elements, so every
 * `+xml` type counts), XSLT, JavaScript under all its names, and legacy plugin content.
 * Such files are always served by the gateway, as attachments with the sandbox policy, even
 * where the store could serve the bytes itself (docs/security.md, "Active content").
 */
const activeTypes = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'text/xsl',
  'application/xslt+xml',
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'text/ecmascript',
  'text/jscript',
  'application/x-shockwave-flash',
  'multipart/x-mixed-replace',
]);

export function isActiveContentType(contentType: string): boolean {
  const essence = toEssence(contentType);
  return activeTypes.has(essence) || essence.endsWith('+xml');
}
