import { Type } from '@sinclair/typebox';
import { parseExpiresInSeconds } from '../../../domain/links/parse-expires-in-seconds.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';

/** The most ids one selection may name: above any project's maxArchiveFiles (1,000,000) it is no request. */
const maxSelectedIds = 1_000_000;

const ExpiresInSeconds = Type.Optional(
  Type.Integer({ description: "the link's lifetime in seconds, 1…604800, default 900" }),
);

const ArchiveBody = Type.Union([
  Type.Object(
    {
      fileIds: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: maxSelectedIds }),
      expiresInSeconds: ExpiresInSeconds,
    },
    { additionalProperties: false, title: 'ArchiveOfFiles' },
  ),
  Type.Object(
    {
      folder: Type.Object(
        {
          owner: Type.Optional(
            Type.String({ description: "the folder owner's userId; default: the caller" }),
          ),
          path: Type.String({ description: "the folder's path ('' for the owner's root)" }),
        },
        { additionalProperties: false },
      ),
      expiresInSeconds: ExpiresInSeconds,
    },
    { additionalProperties: false, title: 'ArchiveOfFolder' },
  ),
]);

const CreatedArchiveSchema = Type.Object(
  {
    url: Type.String({ description: 'the signed link to the ZIP (GET or HEAD; Range resumes)' }),
    expiresAt: Type.Integer({ description: 'Unix seconds' }),
    fileCount: Type.Integer(),
    totalBytes: Type.Integer({ description: "the files' bytes together" }),
    archiveBytes: Type.Integer({ description: "the ZIP's exact length (its Content-Length)" }),
  },
  { $id: 'CreatedArchive', title: 'CreatedArchive' },
);

/**
 * POST /api/v1/archives (issue 40): one signed link to a ZIP of a selection of files or of a
 * folder, every file's access checked now; 201 with the link and the archive's sizes.
 */
export const createArchive: RouteRegistrar = (app, services) => {
  app.post(
    '/archives',
    {
      schema: {
        summary: 'Make one ZIP of many files (a selection or a folder), behind a signed link',
        tags: ['files'],
        body: ArchiveBody,
        response: { 201: CreatedArchiveSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 429) },
      },
    },
    async (request, reply) => {
      const { expiresInSeconds, ...what } = request.body;
      // The download link's own rules (digits, 1…the server's longest link).
      const seconds = parseExpiresInSeconds(
        expiresInSeconds === undefined ? undefined : String(expiresInSeconds),
        services.config.maxLinkTtlSeconds,
      );
      const created = await services.archives.create(request.principal, what, seconds);
      return reply.code(201).send(created);
    },
  );
};
