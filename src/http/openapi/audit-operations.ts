import type { Operation } from './operation.ts';

/** The audit log (issue 22): the app secret alone, or a project admin's token. */
export const auditOperations: Record<string, Operation> = {
  'GET /api/v1/audit': {
    operationId: 'listAuditEvents',
    description:
      "Who did what, from which address: the project's events, newest first, 100 a page, filtered by type, actor, file or time (follow nextCursor). A backend (app secret) or a project admin.",
    access: 'admin',
    errors: ['VALIDATION_FAILED'],
    success: { status: 200, component: 'AuditPage' },
  },
};
