import { Type } from '@sinclair/typebox';
import { toUserView } from '../../domain/identity/user-view.ts';
import { validationFailed } from '../../errors/errors.ts';
import type { Services } from '../../services.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

const maxPageSize = 200;

/**
 * GET /console/api/projects/:projectId/users?after=&limit= — a page of users in email order
 * (an index range from `after`, the last email of the page before: no offset, no count);
 * `?email=` finds one user by email instead.
 */
export const listProjectUsers: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/users',
    {
      schema: {
        hide: true,
        params: projectParams,
        querystring: Type.Object({
          email: Type.Optional(Type.String({ maxLength: 320 })),
          after: Type.Optional(Type.String({ maxLength: 320 })),
          limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: '1…200, default 50' })),
        }),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const { email, after } = request.query;
      const limit = Number(request.query.limit ?? 50);
      if (limit < 1 || limit > maxPageSize) throw validationFailed(`limit must be from 1 to ${maxPageSize}`);
      const { users: found, next } =
        email === undefined
          ? await services.repositories.users.list(project.id, { after, limit })
          : await findOne(services, project.id, email);
      // Each user's files and bytes, from the counters the quotas read: one read for the page.
      const usage = await services.repositories.storageUsage.forUsers(
        project.id,
        found.map((user) => user.id),
      );
      const users = found.map((user) => ({
        ...toUserView(user),
        usage: usage.get(user.id) ?? { files: 0, bytes: 0 },
      }));
      return { users, next: next ?? null };
    },
  );
};

/** `?email=`: the one user with that email, as a page of its own. */
async function findOne(services: Services, projectId: string, email: string) {
  const user = await services.repositories.users.findByEmail(projectId, email);
  return { users: user ? [user] : [], next: undefined };
}
