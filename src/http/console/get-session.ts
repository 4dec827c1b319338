import type { RouteRegistrar } from '../route-context.ts';
import { toOperatorView } from './operator-view.ts';

/** GET /console/api/session: who is signed in. */
export const getSession: RouteRegistrar = (app) => {
  app.get('/session', { schema: { hide: true } }, async (request) => toOperatorView(request.operator!));
};
