import { unavailable } from '../../../errors/errors.ts';
import type { RouteRegistrar } from '../../route-context.ts';

/** GET /healthz: the process serves. GET /readyz: the database and the blob store answer. */
export const health: RouteRegistrar = (app, services) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async () => {
    const [database, blobs] = await Promise.allSettled([services.database.check(), services.blobs.check()]);
    if (database.status === 'rejected') throw unavailable('database', database.reason);
    if (blobs.status === 'rejected') throw unavailable('blob store', blobs.reason);
    return { status: 'ok' };
  });
};
