import { Type } from '@sinclair/typebox';
import { parseExpiresInSeconds } from '../../domain/links/parse-expires-in-seconds.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { operatorPrincipal } from './file-params.ts';
import { findFolderOwner } from './folder-owner.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

/** A console page holds at most a few hundred ticked files: far below any maxArchiveFiles. */
const maxTickedFiles = 10_000;

const ArchiveBody = Type.Union([
  Type.Object(
    { fileIds: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: maxTickedFiles }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      folder: Type.Object(
        { owner: Type.String({ minLength: 1, maxLength: 320 }), path: Type.String({ maxLength: 1025 }) },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
]);

/**
 * POST /console/api/projects/:projectId/archives {fileIds} | {folder: {owner, path}} → 201
 * {url, expiresAt, fileCount, totalBytes, archiveBytes}: the archive of POST /api/v1/archives
 * made as the project's admin (every file of the project readable; the limits of the project
 * hold). The browser then downloads the link, a same-origin /blob/v1 URL, with the default
 * lifetime of a download link. `owner` is an email or a user id.
 */
export const createProjectArchive: RouteRegistrar = (app, services) => {
  app.post(
    '/projects/:projectId/archives',
    { schema: { hide: true, params: projectParams, body: ArchiveBody } },
    async (request, reply) => {
      const project = await findProject(services, request.params.projectId);
      const principal = operatorPrincipal(project, request.operator!.id);
      const body = request.body;
      const what =
        'folder' in body
          ? {
              folder: {
                owner: (await findFolderOwner(services, project.id, body.folder.owner)).id,
                path: body.folder.path,
              },
            }
          : body;
      const seconds = parseExpiresInSeconds(undefined, services.config.maxLinkTtlSeconds);
      return reply.code(201).send(await services.archives.create(principal, what, seconds));
    },
  );
};
