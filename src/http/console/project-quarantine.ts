import { Type } from '@sinclair/typebox';
import { validationFailed } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { fileParams, operatorPrincipal } from './file-params.ts';
import { toFileViewsWithPeople, toFileViewWithPeople } from './file-people.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

/** At most this many quarantined files a page. */
const maxPageSize = 100;

/**
 * The console's quarantine (issue 42, item 2):
 * - GET /console/api/projects/:projectId/quarantine?page=&limit=: the project's quarantined
 *   files, the latest quarantined first, each with its `quarantine` (signature, when, version);
 * - POST …/files/:fileId/quarantine/release: FileQuarantine.release as the project's admin →
 *   the file as it now is. Deleting one is the files page's delete (delete-project-file.ts).
 */
export const projectQuarantine: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/quarantine',
    {
      schema: {
        hide: true,
        params: projectParams,
        querystring: Type.Object(
          {
            page: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
            limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const limit = Number(request.query.limit ?? 50);
      const page = Number(request.query.page ?? 1);
      if (limit < 1 || limit > maxPageSize) throw validationFailed(`limit must be from 1 to ${maxPageSize}`);
      if (page < 1) throw validationFailed('page starts at 1');
      // One more than asked says whether another page follows.
      const files = await services.fileQuarantine.list(project.id, {
        limit: limit + 1,
        offset: (page - 1) * limit,
      });
      return {
        files: await toFileViewsWithPeople(services, project.id, files.slice(0, limit)),
        page,
        hasMore: files.length > limit,
      };
    },
  );
  app.post(
    '/projects/:projectId/files/:fileId/quarantine/release',
    { schema: { hide: true, params: fileParams } },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const principal = operatorPrincipal(project, request.operator!.id);
      const released = await services.fileQuarantine.release(principal, request.params.fileId);
      return { file: await toFileViewWithPeople(services, project.id, released) };
    },
  );
};
