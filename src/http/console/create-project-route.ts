import { Type } from '@sinclair/typebox';
import { createProject } from '../../domain/identity/create-project.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { toProjectView } from './project-view.ts';

/** POST /console/api/projects {name, origins?}: a new project; its app secret is shown this once. */
export const createProjectRoute: RouteRegistrar = (app, services) => {
  app.post(
    '/projects',
    {
      schema: {
        hide: true,
        body: Type.Object(
          {
            name: Type.String({ maxLength: 64 }),
            origins: Type.Optional(Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 100 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const { name, origins } = request.body;
      const { project, appSecret } = await createProject(services.repositories.projects, {
        name,
        allowedOrigins: origins,
      });
      return reply.code(201).send({ project: toProjectView(project), appId: project.appId, appSecret });
    },
  );
};
