import { Type } from '@sinclair/typebox';
import { toAttachmentDisposition, toInlineDisposition } from '../../domain/files/content-disposition.ts';
import type { DownloadableFile } from '../../domain/files/file-service.ts';
import { toEssence } from '../../domain/files/upload-contract.ts';
import { toFileName } from '../../domain/files/validate-file-path.ts';
import { fileNotFound, fileNotVerified, rangeNotSatisfiable } from '../../errors/errors.ts';
import { parseRange } from '../data/parse-range.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { fileParams } from './file-params.ts';
import { findProject } from './project-view.ts';

/** What the console previews in its page: pictures no script runs in, plain text, PDFs. */
const previewable = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'text/plain',
  'application/pdf',
]);

/**
 * GET /console/api/projects/:projectId/files/:fileId/content[?download=1]: a file's bytes for
 * the console's preview and download (with Range). Only the types above are ever inline, and
 * under a policy that lets nothing in them run or load; every other type (HTML and SVG among
 * them) is an attachment. PDFs skip only `sandbox`, which would stop the browser's viewer:
 * their policy still forbids every script and request.
 */
export const getProjectFileContent: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/files/:fileId/content',
    {
      schema: {
        hide: true,
        params: fileParams,
        querystring: Type.Object({ download: Type.Optional(Type.Literal('1')) }),
      },
    },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      const file = await services.repositories.files.findById(request.params.fileId);
      if (!file || file.projectId !== project.id) throw fileNotFound();
      if (!file.verified || !file.content || !file.etag || !file.blobVersion) throw fileNotVerified();
      const { sizeBytes, contentType } = file.content;
      const essence = toEssence(contentType);
      const inline = request.query.download === undefined && previewable.has(essence);
      const fileName = toFileName(file.filePath);
      reply
        .header(
          'content-type',
          inline && essence === 'text/plain' ? 'text/plain; charset=utf-8' : contentType,
        )
        .header(
          'content-disposition',
          inline ? toInlineDisposition(fileName) : toAttachmentDisposition(fileName),
        )
        .header('x-content-type-options', 'nosniff')
        .header(
          'content-security-policy',
          `default-src 'none'; frame-ancestors 'self'${essence === 'application/pdf' ? '' : '; sandbox'}`,
        )
        .header('x-frame-options', 'SAMEORIGIN')
        .header('accept-ranges', 'bytes');
      const range = parseRange(request.headers.range, sizeBytes);
      if (range === 'unsatisfiable') throw rangeNotSatisfiable(sizeBytes);
      if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${sizeBytes}`);
      reply.header('content-length', String(range ? range.end - range.start + 1 : sizeBytes));
      if (sizeBytes === 0) return reply.send('');
      const blob = await services.files.openContent(file as DownloadableFile, {
        range: range ?? { start: 0, end: sizeBytes - 1 },
      });
      return reply.send(blob.body);
    },
  );
};
