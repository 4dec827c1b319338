import { isAppError } from '../../../errors/app-error.ts';
import { storeNotReady } from '../../../errors/errors.ts';
import type { RouteRegistrar } from '../../route-context.ts';

/**
 * GET /healthz: the process serves. GET /readyz: the database and the blob store answer and
 * can take writes (each check writes a small probe): 503 naming the store otherwise.
 */
export const health: RouteRegistrar = (app, services) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async () => {
    const [database, blobs] = await Promise.allSettled([services.database.check(), services.blobs.check()]);
    if (database.status === 'rejected') throw notReady('database', database.reason);
    if (blobs.status === 'rejected') throw notReady('blob store', blobs.reason);
    return { status: 'ok' };
  });
};

function notReady(store: string, reason: unknown) {
  const full = isAppError(reason) && reason.code === 'STORAGE_FULL';
  return storeNotReady(full ? `${store} (full: it cannot take writes)` : store, reason);
}
