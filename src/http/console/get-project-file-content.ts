import { Type } from '@sinclair/typebox';
import { assertNotQuarantined } from '../../domain/admission/assert-not-quarantined.ts';
import { toAttachmentDisposition, toInlineDisposition } from '../../domain/files/content-disposition.ts';
import type { DownloadableFile } from '../../domain/files/file-reading.ts';
import { toEssence } from '../../domain/files/upload-contract.ts';
import { toFileName } from '../../domain/files/validate-file-path.ts';
import { fileNotVerified } from '../../errors/errors.ts';
import { answerRange } from '../data/parse-range.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { fileParams } from './file-params.ts';
import { findProjectFile } from './project-view.ts';

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
      const file = await findProjectFile(services, request.params.projectId, request.params.fileId);
      assertNotQuarantined(file);
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
      const range = answerRange(reply, request.headers.range, sizeBytes);
      if (range === null) return reply.send('');
      const blob = await services.fileReading.openContent(file as DownloadableFile, { range });
      return reply.send(blob.body);
    },
  );
};
