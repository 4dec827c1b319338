import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { FileIdParams, FileRecordSchema } from '../../wire/schemas.ts';
import { toFileView } from '../../wire/to-wire.ts';

/**
 * POST /api/v1/file/:fileId/quarantine/release (project admins: an admin's token or a service
 * key): a quarantined file is readable again → the record, without `quarantine`.
 */
export const releaseQuarantine: RouteRegistrar = (app, services) => {
  app.post(
    '/file/:fileId/quarantine/release',
    {
      schema: {
        summary: 'Release a quarantined file',
        description:
          'A re-scan (`coffer scan`) quarantined the file; releasing it makes its bytes readable again. Links issued before the quarantine stay dead. A file not quarantined stays as it is.',
        tags: ['files'],
        params: FileIdParams,
        response: { 200: FileRecordSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      toFileView(await services.fileQuarantine.release(request.principal, request.params.fileId)),
  );
};
