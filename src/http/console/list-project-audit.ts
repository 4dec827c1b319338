import { listAuditPage } from '../../domain/events/audit-page.ts';
import { AuditQuerySchema, refuseUnknownAuditParameters } from '../control/audit/audit-schemas.ts';
import type { RouteRegistrar } from '../route-context.ts';
import { projectParams } from './project-params.ts';
import { findProject } from './project-view.ts';

/** GET /console/api/projects/:projectId/audit?type=&actor=&fileId=&from=&to=&cursor=&pageSize=: as GET /api/v1/audit. */
export const listProjectAudit: RouteRegistrar = (app, services) => {
  app.get(
    '/projects/:projectId/audit',
    {
      schema: { hide: true, params: projectParams, querystring: AuditQuerySchema },
      preValidation: refuseUnknownAuditParameters,
    },
    async (request) => {
      const project = await findProject(services, request.params.projectId);
      return listAuditPage(services.repositories, project.id, request.query);
    },
  );
};
