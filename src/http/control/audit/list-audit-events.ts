import { listAuditPage } from '../../../domain/events/audit-page.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toManagedProject } from '../project-admin.ts';
import { AuditPageSchema, AuditQuerySchema } from './audit-schemas.ts';

/** GET /api/v1/audit?type=&actor=&fileId=&from=&to=&cursor=: the project's events, newest first. */
export const listAuditEvents: RouteRegistrar = (app, services) => {
  app.get(
    '/audit',
    {
      schema: {
        summary: "The project's audit log, newest first, 100 events a page",
        tags: ['audit'],
        querystring: AuditQuerySchema,
        response: { 200: AuditPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const projectId = toManagedProject(request);
      return listAuditPage(services.repositories.events, projectId, request.query);
    },
  );
};
