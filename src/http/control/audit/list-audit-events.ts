import { listAuditPage } from '../../../domain/events/audit-page.ts';
import { errorResponses, type RouteRegistrar } from '../../route-context.ts';
import { toManagedProject } from '../project-admin.ts';
import { AuditPageSchema, AuditQuerySchema, refuseUnknownAuditParameters } from './audit-schemas.ts';

/** GET /api/v1/audit?type=&actor=&fileId=&from=&to=&cursor=&pageSize=: the project's events, newest first. */
export const listAuditEvents: RouteRegistrar = (app, services) => {
  app.get(
    '/audit',
    {
      schema: {
        summary: "The project's audit log, newest first, 100 events a page (pageSize: fewer)",
        description:
          'Each event names its actor and, for an event about a user, that user (`subject`) by id and ' +
          'by email (one batched read a page). Unknown query parameters are refused (400).',
        tags: ['audit'],
        querystring: AuditQuerySchema,
        response: { 200: AuditPageSchema, ...errorResponses(400, 401, 403) },
      },
      preValidation: refuseUnknownAuditParameters,
    },
    async (request) => {
      const projectId = toManagedProject(request);
      return listAuditPage(services.repositories, projectId, request.query);
    },
  );
};
