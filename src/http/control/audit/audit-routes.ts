import type { RouteRegistrar } from '../../route-context.ts';
import { listAuditEvents } from './list-audit-events.ts';

/** The audit log (issue 22): read with the app secret or by a project admin. */
export const auditRoutes: RouteRegistrar[] = [listAuditEvents];
