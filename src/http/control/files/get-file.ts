import { Type } from '@sinclair/typebox';
import { parseExpiresInSeconds } from '../../../domain/links/parse-expires-in-seconds.ts';
import { isRenditionRequest } from '../../../domain/renditions/resolve-rendition-spec.ts';
import { validationFailed } from '../../../errors/errors.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { sendFileWithLink } from '../../wire/json-with-link.ts';
import { FileIdParams, FileWithLinkSchema, RenditionQuerySchema } from '../../wire/schemas.ts';

/**
 * Spec 4.5: GET /api/v1/file/:fileId?expiresInSeconds=N → the record, a download link and its
 * expiry. With rendition parameters (issue 21), `url` links to that rendition of the image; with
 * `versionId` (issue 38), the record of that version and a link to its bytes.
 */
export const getFile: RouteRegistrar = (app, services) => {
  app.get(
    '/file/:fileId',
    {
      schema: {
        summary: 'Get file metadata and a download link',
        tags: ['files'],
        params: FileIdParams,
        // A string on purpose: the digits-only rule is ours, not the validator's coercion.
        querystring: Type.Object({
          expiresInSeconds: Type.Optional(Type.String({ description: 'seconds, 1…604800, default 900' })),
          versionId: Type.Optional(
            Type.String({ description: 'the record of this version, and a link to its bytes (issue 38)' }),
          ),
          ...RenditionQuerySchema,
        }),
        response: { 200: FileWithLinkSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const expiresInSeconds = parseExpiresInSeconds(
        request.query.expiresInSeconds,
        services.config.maxLinkTtlSeconds,
      );
      const { expiresInSeconds: _, versionId, ...rendition } = request.query;
      if (versionId !== undefined && isRenditionRequest(rendition))
        throw validationFailed(
          'versionId: renditions are of the current version; ask for one without versionId',
        );
      const { file, download } = isRenditionRequest(rendition)
        ? await services.renditions.getWithRenditionLink(
            request.principal,
            request.params.fileId,
            rendition,
            expiresInSeconds,
          )
        : await services.fileReading.getWithDownloadLink(
            request.principal,
            request.params.fileId,
            expiresInSeconds,
            versionId,
          );
      return sendFileWithLink(reply, file, download);
    },
  );
};
