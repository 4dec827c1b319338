import { Type } from '@sinclair/typebox';
import { toOrigin } from '../../domain/identity/create-project.ts';
import { notFound } from '../../errors/errors.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { projectParams } from './project-params.ts';
import { findProject, toProjectView } from './project-view.ts';

/** PUT /console/api/projects/:projectId/origins {origins}: the browser origins allowed, as a whole. */
export const replaceOriginsRoute: RouteRegistrar = (app, services) => {
  app.put(
    '/projects/:projectId/origins',
    {
      schema: {
        hide: true,
        params: projectParams,
        body: Type.Object(
          { origins: Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 100 }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const wanted = request.body.origins.map(toOrigin);
      const change = {
        add: wanted.filter((origin) => !project.allowedOrigins.includes(origin)),
        remove: project.allowedOrigins.filter((origin) => !wanted.includes(origin)),
      };
      const updated = await services.repositories.projects.changeAllowedOrigins(project.id, change);
      if (!updated) throw notFound('project');
      return { project: toProjectView(updated) };
    },
  );
};
