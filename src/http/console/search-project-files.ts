import { Type } from '@sinclair/typebox';
import { toSearchRequest } from '../../domain/files/search-request.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { operatorPrincipal } from './file-params.ts';
import { toFileViewsWithPeople } from './file-people.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

const pageSize = 50;

/**
 * GET /console/api/projects/:projectId/files/search?name=&contentType=&prefix=&cursor= — the
 * console's search box (issue 40): the same search as GET /api/v1/file, by the project's admin
 * rules (every file of the project), newest first, a page at a time. `next` is the search's
 * cursor; a page may hold fewer than 50 files and still go on (the search's examination budget).
 */
export const searchProjectFiles: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/files/search',
    {
      schema: {
        hide: true,
        params: projectParams,
        querystring: Type.Object({
          name: Type.Optional(Type.String({ maxLength: 255 })),
          contentType: Type.Optional(Type.String({ maxLength: 255 })),
          prefix: Type.Optional(Type.String({ maxLength: 1024 })),
          cursor: Type.Optional(Type.String({ maxLength: 2048 })),
        }),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const { name, contentType, prefix, cursor } = request.query;
      const found = await services.fileReading.search(operatorPrincipal(project, request.operator!.id), {
        ...toSearchRequest({ name, contentType, cursor }),
        pageSize,
        pageNumber: 1,
        filePathPrefix: prefix || undefined,
      });
      return {
        files: await toFileViewsWithPeople(services, project.id, found.files),
        next: found.nextCursor ?? null,
      };
    },
  );
};
