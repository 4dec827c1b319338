import { Type } from '@sinclair/typebox';
import { validationFailed } from '../../errors/errors.ts';
import type { Services } from '../../services.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { toFileViewsWithPeople } from './file-people.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

const maxPageSize = 200;

/**
 * GET /console/api/projects/:projectId/files?owner=&prefix=&cursor=&limit= — the project's
 * files (of one owner, named by email or id, when `owner` is given) in path order, a page at a time: `cursor` is the `next` of the page before (an index
 * range from its last (path, id): no offset, no count, the same cost at any depth).
 */
export const browseProjectFiles: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/files',
    {
      schema: {
        hide: true,
        params: projectParams,
        querystring: Type.Object({
          owner: Type.Optional(Type.String({ maxLength: 320 })),
          prefix: Type.Optional(Type.String({ maxLength: 1024 })),
          cursor: Type.Optional(Type.String({ maxLength: 2048 })),
          limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
        }),
      },
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      const limit = Number(request.query.limit ?? 50);
      if (limit < 1 || limit > maxPageSize) throw validationFailed(`limit must be from 1 to ${maxPageSize}`);
      const creatorId = await toOwnerId(services, project.id, request.query.owner);
      if (creatorId === null) return { files: [], next: null };
      const files = await services.repositories.files.browse({
        projectId: project.id,
        creatorId,
        prefix: request.query.prefix,
        after: request.query.cursor === undefined ? undefined : fromCursor(request.query.cursor),
        limit,
      });
      const last = files.at(-1);
      const next = files.length === limit && last ? toCursor(last.filePath, last.id) : null;
      return { files: await toFileViewsWithPeople(services, project.id, files), next };
    },
  );
};

function toCursor(filePath: string, id: string): string {
  return Buffer.from(JSON.stringify([filePath, id])).toString('base64url');
}

function fromCursor(cursor: string): { filePath: string; id: string } {
  try {
    const [filePath, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof filePath === 'string' && typeof id === 'string') return { filePath, id };
  } catch {
    // reported below
  }
  throw validationFailed('cursor: use the `next` of the page before');
}

/** `owner` as people type it: an email (any case) or a user id; null when no user has that email. */
async function toOwnerId(services: Services, projectId: string, owner: string | undefined) {
  if (owner === undefined || !owner.includes('@')) return owner;
  const user = await services.repositories.users.findByEmail(projectId, owner);
  return user ? user.id : null;
}
