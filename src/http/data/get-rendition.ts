import { Type } from '@sinclair/typebox';
import { toInlineDisposition } from '../../domain/files/content-disposition.ts';
import { toFileName } from '../../domain/files/validate-file-path.ts';
import { isWellFormedId } from '../../domain/ids.ts';
import { toGatewayQuery } from '../../domain/links/link-issuer.ts';
import type { RenditionLink } from '../../domain/renditions/renditions.ts';
import { invalidSignature } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { sendStoredBytes } from './send-stored-bytes.ts';

const RenditionParams = Type.Object({ fileId: Type.String(), spec: Type.String() });
const linkQuery = /^exp=(\d{1,12})&gen=(\d{1,12})&kid=([^&]*)&sig=([^&]*)$/;
const extensions: Record<string, string> = {
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
};

/**
 * GET and HEAD on a rendition link (issue 21): the rendition, rendered on first use and served
 * from the blob store after, with the download's Range and conditional GET. Its bytes never
 * change for a link (an immutable source version, a signed spec): browsers may keep them until
 * the link expires.
 */
export const getRendition: RouteRegistrar = (app, services) => {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/renditions/:fileId/:spec',
    exposeHeadRoute: false,
    schema: { hide: true, params: RenditionParams },
    handler: async (request, reply) => {
      const link = toRenditionLink(request.url, request.params);
      // No abort signal: a render a client gave up on still completes and is stored for the next
      // one (and an AbortController per request costs a DOMException on every close).
      const { file, rendition, bytes } = await services.renditions.getServable(link);
      const stem = toFileName(file.filePath).replace(/\.[^.]*$/, '');
      const name = `${stem}.${link.spec}.${extensions[rendition.contentType] ?? 'img'}`;
      const secondsLeft = Math.max(0, link.expiresAt - Math.floor(Date.now() / 1000));
      return sendStoredBytes(request, reply, {
        sizeBytes: rendition.sizeBytes,
        contentType: rendition.contentType,
        etag: rendition.etag,
        lastModified: rendition.createdAt,
        contentDisposition: toInlineDisposition(name),
        cacheControl: `private, max-age=${secondsLeft}, immutable`,
        open: async (range) =>
          bytes
            ? { body: bytes.subarray(range.start, range.end + 1) }
            : services.renditions.open(rendition, { range }),
      });
    },
  });
};

/** security: as download links, only the exact spelling the issuer writes is a link. */
function toRenditionLink(url: string, params: { fileId: string; spec: string }): RenditionLink {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
  const match = linkQuery.exec(query);
  const { fileId, spec } = params;
  if (!match || !isWellFormedId(fileId) || !path.endsWith(`/${fileId}/${spec}`)) throw invalidSignature();
  const [, exp = '', gen = '', kid = '', sig = ''] = match;
  const link = { fileId, spec, expiresAt: Number(exp), generation: Number(gen), kid, sig };
  if (query !== toGatewayQuery({ ...link, keyId: kid, signature: sig })) throw invalidSignature();
  return link;
}
