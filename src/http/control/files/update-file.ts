import { Type } from '@sinclair/typebox';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { CustomDataSchema, FileIdParams, FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';

/** PATCH /api/v1/file/:fileId {customData}: replaces the file's customData (creator or admin) → the record. */
export const updateFile: RouteRegistrar = (app, services) => {
  app.patch(
    '/file/:fileId',
    {
      schema: {
        summary: "Replace a file's customData",
        tags: ['files'],
        params: FileIdParams,
        body: Type.Object({ customData: CustomDataSchema }),
        response: { 200: FileRecordSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      toFileView(
        await services.fileOrganizer.updateCustomData(
          request.principal,
          request.params.fileId,
          request.body.customData,
        ),
      ),
  );
};
