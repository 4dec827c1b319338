import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams, FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';

/** POST /api/v1/file/:fileId/move {filePath}: the same file (id, ACL, bytes) at another path of its creator → the record. */
export const moveFile: RouteRegistrar = (app, services) => {
  app.post(
    '/file/:fileId/move',
    {
      schema: {
        summary: 'Move a file to another path',
        tags: ['files'],
        params: FileIdParams,
        body: Type.Object({
          filePath: Type.String({ description: "the new path inside the creator's folder" }),
        }),
        response: { 200: FileRecordSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      toFileView(await services.fileOrganizer.move(request.principal, request.params.fileId, request.body)),
  );
};
