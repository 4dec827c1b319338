import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams, FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';

/** POST /api/v1/trash/:fileId/restore {filePath?}: back at its path or the given one → the record. */
export const restoreTrashed: RouteRegistrar = (app, services) => {
  app.post(
    '/trash/:fileId/restore',
    {
      schema: {
        summary: 'Restore a trashed file',
        tags: ['trash'],
        params: FileIdParams,
        body: Type.Object(
          {
            filePath: Type.Optional(
              Type.String({ description: 'where to restore it; absent: the path it was deleted from' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: FileRecordSchema, ...errorResponses(400, 401, 403, 404, 409, 413) },
      },
      // No body at all is a restore at the old path (as `{}`): clients send the call bare.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const { filePath } = request.body;
      const file = await services.trash.restore(
        request.principal,
        request.params.fileId,
        filePath === undefined ? {} : { filePath },
      );
      return toFileView(file);
    },
  );
};
