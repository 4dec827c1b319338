import { Type } from '@sinclair/typebox';
import { maxBulkDeleteIds } from '../../../domain/files/file-organizer.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';

const OutcomeSchema = Type.Object({
  fileId: Type.String(),
  statusCode: Type.Integer({
    description: '204 when deleted, else the status DELETE /api/v1/file/:id would answer',
  }),
  code: Type.Optional(Type.String({ description: 'the error code, when not deleted' })),
});

/**
 * POST /api/v1/file/delete {fileIds}: deletes each file as DELETE /api/v1/file/:id would
 * (creator or admin), one at a time; 200 with one outcome per id, in order.
 */
export const deleteFiles: RouteRegistrar = (app, services) => {
  app.post(
    '/file/delete',
    {
      schema: {
        summary: 'Delete several files',
        tags: ['files'],
        body: Type.Object({
          fileIds: Type.Array(Type.String({ maxLength: 64 }), {
            minItems: 1,
            maxItems: maxBulkDeleteIds,
            uniqueItems: true,
          }),
        }),
        response: {
          200: Type.Object({ results: Type.Array(OutcomeSchema) }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => ({
      results: await services.fileOrganizer.deleteMany(request.principal, request.body.fileIds),
    }),
  );
};
