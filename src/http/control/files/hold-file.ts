import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams, FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';

/**
 * POST /api/v1/file/:fileId/hold {reason} (project admins: an admin's token or a service key):
 * a legal hold, until DELETE …/hold lifts it → the record, with its `hold`.
 */
export const holdFile: RouteRegistrar = (app, services) => {
  app.post(
    '/file/:fileId/hold',
    {
      schema: {
        summary: 'Put a file on a legal hold',
        description:
          'While held, no one may delete, purge, replace or move the file (409 FILE_ON_HOLD), nor move or delete a folder holding it; copies are allowed. Holding a held file replaces its reason.',
        tags: ['files'],
        params: FileIdParams,
        body: Type.Object({
          reason: Type.String({ minLength: 1, maxLength: 500, description: 'why the file is held' }),
        }),
        response: { 200: FileRecordSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      toFileView(
        await services.fileHolds.hold(request.principal, request.params.fileId, request.body.reason),
      ),
  );
};
