import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams, FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';

/**
 * POST /api/v1/file/:fileId/copy {filePath, permissionScope?}: a new file of the caller with
 * the same bytes (never copied), a new id and an ACL of the caller alone → its record.
 */
export const copyFile: RouteRegistrar = (app, services) => {
  app.post(
    '/file/:fileId/copy',
    {
      schema: {
        summary: 'Copy a file to a path of your own',
        tags: ['files'],
        params: FileIdParams,
        body: Type.Object({
          filePath: Type.String({ description: "the copy's path inside the caller's folder" }),
          permissionScope: Type.Optional(
            Type.Union([Type.Literal('user'), Type.Literal('*')], {
              default: 'user',
              description: "the copy's own scope; the source's ACL is not copied",
            }),
          ),
        }),
        response: { 200: FileRecordSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      toFileView(await services.fileOrganizer.copy(request.principal, request.params.fileId, request.body)),
  );
};
