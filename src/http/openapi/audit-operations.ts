import type { Operation } from './operation.ts';

/** The audit log (issue 22): the app secret alone, or a project admin's token. */
export const auditOperations: Record<string, Operation> = {
  'GET /api/v1/audit': {
    operationId: 'listAuditEvents',
    access: 'admin',
    errors: ['VALIDATION_FAILED'],
    success: { status: 200, component: 'AuditPage' },
  },
};
